import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { BOOKMARK_SEARCH_FIELDS, type BookmarkQuerySpec } from '../../contract/bookmarks.ts';
import { createPostgresBookmarkIndex } from '../../server/src/bookmarks/bookmarks.search.postgres.ts';
import { createSqliteBookmarkIndex } from '../../server/src/bookmarks/bookmarks.search.sqlite.ts';
import { createBookmarksStore } from '../../server/src/bookmarks/bookmarks.store.ts';
import { searchTerms } from '../../server/src/search/search-text.ts';
import type { Database } from '../../server/src/storage/schema.ts';
import { nodeSqliteDatabase } from '../../server/src/storage/node-sqlite.ts';
import { pgTypes } from '../../server/src/storage/pg-types.ts';
import { type RunningServer, startServer } from '../../web/e2e/server.ts';
import { machine, median, percentile } from '../lib/measure.ts';
import { fixedReplyServer } from '../lib/fixed-reply.ts';
import { freshPostgresDatabase } from '../mixed/postgres-database.ts';
import { type BenchRequest as Request, bookmarkPageStream, bookmarkSearchStream } from './bookmark-requests.ts';
import { writeNetscapeFile } from './generate-bookmarks.ts';

const OUT = path.resolve(import.meta.dirname, '../out');
const RESULTS = path.resolve(import.meta.dirname, '../results');
const COUNT = Number(process.env.BENCH_BOOKMARKS ?? 100_000);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Latency of one user's requests one after another, and the server under 50 at once. */
const CONCURRENCY = [1, 50];
/** Where the benchmark makes (and afterwards drops) a database of its own. */
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Both are set up first, then measured in turn within each round, so that both see the machine's same moments. */
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;

type Latency = { p50: number; p99: number; requestsPerSecond: number; errors: number };

async function load(baseUrl: string, requests: Request[], connections: number, token?: string): Promise<Latency> {
  let next = 0;
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: LOAD_SECONDS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    requests: [
      {
        setupRequest: (request) => {
          const chosen = requests[next++ % requests.length]!;
          return { ...request, method: chosen.method, path: chosen.path, body: chosen.body, headers: { ...request.headers, ...chosen.headers } };
        },
      },
    ],
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: Math.round(result.requests.average),
    errors: result.errors + result.non2xx,
  };
}

/** The floor: the same index and store calls the routes make, in-process, one at a time. */
async function rawLatencies(setup: Setup, searches: Request[], pages: Request[]) {
  const ownerId = setup.uid;
  const db =
    setup.database === 'sqlite'
      ? new Kysely<Database>({ dialect: new SqliteDialect({ database: nodeSqliteDatabase(path.join(setup.server.dataDir, 'organiser.sqlite')) }) })
      : new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: setup.postgresUrl, max: 1, types: pgTypes }) }) });
  const index = setup.database === 'sqlite' ? createSqliteBookmarkIndex(db) : createPostgresBookmarkIndex(db);
  const store = createBookmarksStore(db, setup.database);
  const time = async (requests: Request[], run: (request: Request) => Promise<unknown>) => {
    const times: number[] = [];
    for (const request of requests) {
      const started = performance.now();
      await run(request);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { p50: +percentile(times, 50).toFixed(3), p99: +percentile(times, 99).toFixed(3) };
  };
  const search = await time(searches, (request) => {
    const spec = JSON.parse(request.body!) as BookmarkQuerySpec;
    return index.search(ownerId, {
      terms: searchTerms(spec.key_words.join(' ')),
      fields: spec.fields ?? [...BOOKMARK_SEARCH_FIELDS],
      hosts: spec.hosts,
      from: 0,
      size: 10,
    });
  });
  const page = await time(pages, (request) => {
    const tag = new URL(request.path, 'http://x').searchParams.get('tag') ?? undefined;
    return store.summaryAndPage(ownerId, tag, { filter: {}, after: undefined, limit: 11 });
  });
  await db.destroy();
  return { search, page };
}

const USER = { email: 'bench@example.org', password: 'benchmark password' };

async function signUp(server: RunningServer): Promise<{ token: string; uid: string }> {
  const response = await fetch(`${server.baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...USER, displayName: 'Bench' }),
  });
  const reply = (await response.json()) as { idToken: string; user: { uid: string } };
  return { token: reply.idToken, uid: reply.user.uid };
}

/**
 * A new token for the user: one lasts 15 minutes, and on a busy machine an import alone (on
 * SQLite, of the server set up first) has taken longer, every request after it answered 401.
 */
async function signIn(setup: Setup): Promise<void> {
  const response = await fetch(`${setup.server.baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(USER),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  setup.token = ((await response.json()) as { idToken: string }).idToken;
}

/**
 * The upload goes through node:http, which waits as long as the import takes: fetch gives up on a
 * reply that takes more than five minutes to start.
 */
async function importBookmarks(server: RunningServer, token: string) {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `bookmarks-${COUNT}.html`);
  if (!fs.existsSync(file)) writeNetscapeFile(file, COUNT);
  const form = new FormData();
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const upload = new Request('http://upload', { method: 'POST', body: form });
  const body = Buffer.from(await upload.arrayBuffer());
  const started = performance.now();
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(
      `${server.baseUrl}/bookmarks/import`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': upload.headers.get('content-type')!, 'content-length': body.length } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
  const reply = JSON.parse(text) as { imported: number; errors: unknown[] };
  if (status !== 200 || reply.imported !== COUNT) throw new Error(`import failed: ${text.slice(0, 500)}`);
  return { bookmarks: reply.imported, seconds: +((performance.now() - started) / 1000).toFixed(1) };
}

async function sample(server: RunningServer, token: string, request: Request) {
  const response = await fetch(`${server.baseUrl}${request.path}`, {
    method: request.method,
    headers: { authorization: `Bearer ${token}`, ...request.headers },
    body: request.body ?? null,
  });
  return response.text();
}

type Round = { database: string; concurrency: number; search: Latency; searchFloor: Latency; page: Latency; pageFloor: Latency };
type Percentiles = { p50: number; p99: number };
type Raw = Awaited<ReturnType<typeof rawLatencies>>;
/** One database's server, its user and their bookmarks. */
type Setup = {
  database: 'sqlite' | 'postgres';
  server: RunningServer;
  token: string;
  uid: string;
  imported: { bookmarks: number; seconds: number };
  postgresUrl?: string;
  settings?: Record<string, string>;
  drop(): Promise<void>;
};
type DatabaseReport = {
  database: string;
  settings?: Record<string, string>;
  import: { bookmarks: number; seconds: number };
  results: Array<{ concurrency: number; search: Latency; searchHttpFloor: Latency; page: Latency; pageHttpFloor: Latency }>;
  rawFloor: { search: Percentiles; page: Percentiles };
};
type Report = {
  machine: ReturnType<typeof machine>;
  bookmarks: number;
  rounds: number;
  secondsPerRound: number;
  databases: DatabaseReport[];
};

function writeReport(report: Report) {
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'bookmarks.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'bookmarks.md'), markdown(report));
}

async function setUp(database: 'sqlite' | 'postgres'): Promise<Setup> {
  const postgres = database === 'postgres' ? await freshPostgresDatabase(POSTGRES_URL, `organiser_bench_bookmarks_${process.pid}`) : undefined;
  const server = await startServer({ LOG_LEVEL: 'warn', ...(postgres ? { DATABASE_URL: postgres.url } : {}) }, { needsWebClient: false });
  try {
    const { token, uid } = await signUp(server);
    const imported = await importBookmarks(server, token);
    console.log(`  ${database}: imported ${imported.bookmarks} bookmarks in ${imported.seconds} s`);
    return {
      database,
      server,
      token,
      uid,
      imported,
      ...(postgres ? { postgresUrl: postgres.url, settings: postgres.settings } : {}),
      drop: async () => {
        await server.stop();
        await postgres?.drop();
      },
    };
  } catch (error) {
    console.error(server.logs().slice(-5000));
    await server.stop();
    await postgres?.drop();
    throw error;
  }
}

const medianLatency = (chosen: Latency[]): Latency => ({
  p50: median(chosen.map((c) => c.p50)),
  p99: median(chosen.map((c) => c.p99)),
  requestsPerSecond: median(chosen.map((c) => c.requestsPerSecond)),
  errors: chosen.reduce((sum, c) => sum + c.errors, 0),
});

export async function benchBookmarks() {
  const setups: Setup[] = [];
  let report: Report;
  try {
    for (const database of DATABASES) setups.push(await setUp(database));
    const searches = bookmarkSearchStream(COUNT, 200_000);
    const pages = bookmarkPageStream(10_000);
    const first = setups[0]!;
    await signIn(first);
    const searchBody = await sample(first.server, first.token, searches[0]!);
    console.log(`  sample search ${searches[0]!.body}: ${searchBody.slice(0, 300)}…`);
    const floor = await fixedReplyServer([
      { method: 'POST', url: '/api/bookmarks/query', body: searchBody },
      { method: 'GET', url: '/bookmarks/', body: await sample(first.server, first.token, pages[0]!) },
    ]);
    const rounds: Round[] = [];
    const raws = new Map<string, Raw[]>(setups.map((setup) => [setup.database, []]));
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const [at, concurrency] of CONCURRENCY.entries()) {
          // Each run its own part of the stream: a query comes again only as people would repeat it.
          const fresh = searches.slice((round * CONCURRENCY.length + at) * 25_000, 180_000);
          const searchFloor = await load(floor.baseUrl, searches, concurrency);
          const pageFloor = await load(floor.baseUrl, pages, concurrency);
          for (const setup of setups) {
            await signIn(setup);
            const measured: Round = {
              database: setup.database,
              concurrency,
              search: await load(setup.server.baseUrl, fresh, concurrency, setup.token),
              searchFloor,
              page: await load(setup.server.baseUrl, pages, concurrency, setup.token),
              pageFloor,
            };
            rounds.push(measured);
            console.log(`  round ${round + 1}, ${setup.database}, ${concurrency} connection(s): ${JSON.stringify(measured)}`);
          }
        }
        for (const setup of setups) {
          const raw = await rawLatencies(setup, searches.slice(180_000 + round * 2000, 180_000 + (round + 1) * 2000), pages.slice(0, 2000));
          raws.get(setup.database)!.push(raw);
          console.log(`  round ${round + 1}, ${setup.database}, raw: ${JSON.stringify(raw)}`);
        }
      }
    } finally {
      floor.stop();
    }
    report = {
      machine: machine(),
      bookmarks: COUNT,
      rounds: ROUNDS,
      secondsPerRound: LOAD_SECONDS,
      databases: setups.map((setup) => {
        const own = rounds.filter((round) => round.database === setup.database);
        const summary = (pick: (round: Round) => Latency, concurrency: number) =>
          medianLatency(own.filter((round) => round.concurrency === concurrency).map(pick));
        const raw = raws.get(setup.database)!;
        return {
          database: setup.database,
          ...(setup.settings ? { settings: setup.settings } : {}),
          import: setup.imported,
          results: CONCURRENCY.map((concurrency) => ({
            concurrency,
            search: summary((r) => r.search, concurrency),
            searchHttpFloor: summary((r) => r.searchFloor, concurrency),
            page: summary((r) => r.page, concurrency),
            pageHttpFloor: summary((r) => r.pageFloor, concurrency),
          })),
          rawFloor: {
            search: { p50: median(raw.map((r) => r.search.p50)), p99: median(raw.map((r) => r.search.p99)) },
            page: { p50: median(raw.map((r) => r.page.p50)), p99: median(raw.map((r) => r.page.p99)) },
          },
        };
      }),
    };
  } finally {
    for (const setup of setups) await setup.drop();
  }
  writeReport(report);
  console.log(markdown(report));
}

function markdown(report: Report) {
  const m = report.machine;
  const row = (what: string, l: Latency) => `| ${what} | ${l.p50} | ${l.p99} | ${l.requestsPerSecond} |`;
  const lines = [
    '# Bookmarks benchmark',
    '',
    `Machine: ${m.cores} × ${m.cpu}, ${m.memoryGb} GiB, ${m.platform}, Node ${m.node}; ${m.date}. Load generator (autocannon), server and PostgreSQL share the machine, which other work shared too.`,
    '',
    `One user with ${report.bookmarks} bookmarks (Zipf-distributed hosts, tags and title words) on each database (${report.databases.map((d) => `${d.database}: imported as one browser bookmarks file in ${d.import.seconds} s`).join('; ')}). Both servers are set up first, then each round measures one and then the other, so that both see the machine at the same moments. Medians of ${report.rounds} rounds of ${report.secondsPerRound} s. Searches are one or two title words of a saved bookmark (a quarter cut short, a fifth narrowed to its host, a tenth to titles), each with its host and tag groups; pages are the list's first ten, a third of them filtered by a common tag, with the collection's groups. Each run takes its own part of a stream of 200,000 searches, so a search comes again only as people repeat it (common words often); the server keeps results until the user's index changes, the raw floor does not.`,
    '',
    'docs/budgets.md: search with facets p50 ≤ 10 ms; a page p50 ≤ 3 ms.',
  ];
  for (const database of report.databases) {
    lines.push('', `## ${database.database}`);
    if (database.settings) lines.push('', `Settings: ${Object.entries(database.settings).map(([name, value]) => `${name} ${value}`).join(', ')}.`);
    for (const result of database.results) {
      lines.push(
        '',
        `### ${result.concurrency} connection${result.concurrency === 1 ? '' : 's'}`,
        '',
        '| what | p50 (ms) | p99 (ms) | req/s |',
        '|---|---:|---:|---:|',
        row('POST /api/bookmarks/query', result.search),
        row('floor: same framework, same bytes', result.searchHttpFloor),
        row('GET /bookmarks/ (first page)', result.page),
        row('floor: same framework, same bytes', result.pageHttpFloor),
      );
    }
    lines.push(
      '',
      '### Raw floor: the same index and store calls in-process, one at a time',
      '',
      '| what | p50 (ms) | p99 (ms) |',
      '|---|---:|---:|',
      `| search with groups | ${database.rawFloor.search.p50} | ${database.rawFloor.search.p99} |`,
      `| first page with groups | ${database.rawFloor.page.p50} | ${database.rawFloor.page.p99} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
