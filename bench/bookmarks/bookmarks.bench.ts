import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { Kysely, SqliteDialect } from 'kysely';
import { BOOKMARK_SEARCH_FIELDS, type BookmarkQuerySpec } from '../../contract/bookmarks.ts';
import { createSqliteBookmarkIndex } from '../../server/src/bookmarks/bookmarks.search.sqlite.ts';
import { createBookmarksStore } from '../../server/src/bookmarks/bookmarks.store.ts';
import { searchTerms } from '../../server/src/search/search-text.ts';
import type { Database } from '../../server/src/storage/schema.ts';
import { nodeSqliteDatabase } from '../../server/src/storage/node-sqlite.ts';
import { type RunningServer, startServer } from '../../web/e2e/server.ts';
import { machine, median, percentile } from '../lib/measure.ts';
import { fixedReplyServer } from '../lib/fixed-reply.ts';
import { type BenchRequest as Request, bookmarkPageStream, bookmarkSearchStream } from './bookmark-requests.ts';
import { writeNetscapeFile } from './generate-bookmarks.ts';

const OUT = path.resolve(import.meta.dirname, '../out');
const RESULTS = path.resolve(import.meta.dirname, '../results');
const COUNT = Number(process.env.BENCH_BOOKMARKS ?? 100_000);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Latency of one user's requests one after another, and the server under 50 at once. */
const CONCURRENCY = [1, 50];

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
async function rawLatencies(file: string, ownerId: string, searches: Request[], pages: Request[]) {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: nodeSqliteDatabase(file) }) });
  const index = createSqliteBookmarkIndex(db);
  const store = createBookmarksStore(db);
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
    return store.summary(ownerId, tag).then((summary) => store.page(ownerId, { tag: summary.tag }, undefined, 11));
  });
  await db.destroy();
  return { search, page };
}

async function signUp(server: RunningServer): Promise<{ token: string; uid: string }> {
  const response = await fetch(`${server.baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.org', password: 'benchmark password', displayName: 'Bench' }),
  });
  const reply = (await response.json()) as { idToken: string; user: { uid: string } };
  return { token: reply.idToken, uid: reply.user.uid };
}

async function importBookmarks(server: RunningServer, token: string) {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `bookmarks-${COUNT}.html`);
  if (!fs.existsSync(file)) writeNetscapeFile(file, COUNT);
  const form = new FormData();
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/bookmarks/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const reply = (await response.json()) as { imported: number; errors: unknown[] };
  if (response.status !== 200 || reply.imported !== COUNT) throw new Error(`import failed: ${JSON.stringify(reply).slice(0, 500)}`);
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

type Round = { concurrency: number; search: Latency; searchFloor: Latency; page: Latency; pageFloor: Latency };
type Percentiles = { p50: number; p99: number };
type Report = {
  machine: ReturnType<typeof machine>;
  bookmarks: number;
  import: { bookmarks: number; seconds: number };
  rounds: number;
  secondsPerRound: number;
  results: Array<{ concurrency: number; search: Latency; searchHttpFloor: Latency; page: Latency; pageHttpFloor: Latency }>;
  rawFloor: { search: Percentiles; page: Percentiles };
};

function writeReport(report: Report) {
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'bookmarks.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'bookmarks.md'), markdown(report));
}

export async function benchBookmarks() {
  const server = await startServer({ LOG_LEVEL: 'warn' }, { needsWebClient: false });
  let report: Report;
  try {
    const { token, uid } = await signUp(server);
    const imported = await importBookmarks(server, token);
    console.log(`  imported ${imported.bookmarks} bookmarks in ${imported.seconds} s`);
    const searches = bookmarkSearchStream(COUNT, 200_000);
    const pages = bookmarkPageStream(10_000);
    const searchBody = await sample(server, token, searches[0]!);
    console.log(`  sample search ${searches[0]!.body}: ${searchBody.slice(0, 300)}…`);
    const floor = await fixedReplyServer([
      { method: 'POST', url: '/api/bookmarks/query', body: searchBody },
      { method: 'GET', url: '/bookmarks/', body: await sample(server, token, pages[0]!) },
    ]);
    const rounds: Round[] = [];
    const raws: Array<Awaited<ReturnType<typeof rawLatencies>>> = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const [at, concurrency] of CONCURRENCY.entries()) {
          // Each run its own part of the stream: a query comes again only as people would repeat it.
          const fresh = searches.slice((round * CONCURRENCY.length + at) * 25_000, 180_000);
          const measured: Round = {
            concurrency,
            search: await load(server.baseUrl, fresh, concurrency, token),
            searchFloor: await load(floor.baseUrl, searches, concurrency),
            page: await load(server.baseUrl, pages, concurrency, token),
            pageFloor: await load(floor.baseUrl, pages, concurrency),
          };
          rounds.push(measured);
          console.log(`  round ${round + 1}, ${concurrency} connection(s): ${JSON.stringify(measured)}`);
        }
        raws.push(await rawLatencies(path.join(server.dataDir, 'organiser.sqlite'), uid, searches.slice(180_000 + round * 2000, 180_000 + (round + 1) * 2000), pages.slice(0, 2000)));
        console.log(`  round ${round + 1}, raw: ${JSON.stringify(raws.at(-1))}`);
      }
    } finally {
      floor.stop();
    }
    const summary = (pick: (round: Round) => Latency, concurrency: number) => {
      const chosen = rounds.filter((round) => round.concurrency === concurrency).map(pick);
      return {
        p50: median(chosen.map((c) => c.p50)),
        p99: median(chosen.map((c) => c.p99)),
        requestsPerSecond: median(chosen.map((c) => c.requestsPerSecond)),
        errors: chosen.reduce((sum, c) => sum + c.errors, 0),
      };
    };
    report = {
      machine: machine(),
      bookmarks: COUNT,
      import: imported,
      rounds: ROUNDS,
      secondsPerRound: LOAD_SECONDS,
      results: CONCURRENCY.map((concurrency) => ({
        concurrency,
        search: summary((r) => r.search, concurrency),
        searchHttpFloor: summary((r) => r.searchFloor, concurrency),
        page: summary((r) => r.page, concurrency),
        pageHttpFloor: summary((r) => r.pageFloor, concurrency),
      })),
      rawFloor: {
        search: { p50: median(raws.map((r) => r.search.p50)), p99: median(raws.map((r) => r.search.p99)) },
        page: { p50: median(raws.map((r) => r.page.p50)), p99: median(raws.map((r) => r.page.p99)) },
      },
    };
  } finally {
    await server.stop();
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
    `Machine: ${m.cores} × ${m.cpu}, ${m.memoryGb} GiB, ${m.platform}, Node ${m.node}; ${m.date}. Load generator (autocannon) and server share the machine, which other work shared too.`,
    '',
    `One user with ${report.bookmarks} bookmarks (Zipf-distributed hosts, tags and title words), SQLite, imported as one browser bookmarks file in ${report.import.seconds} s. Medians of ${report.rounds} rounds of ${report.secondsPerRound} s. Searches are one or two title words of a saved bookmark (a quarter cut short, a fifth narrowed to its host, a tenth to titles), each with its host and tag groups; pages are the list's first ten, a third of them filtered by a common tag, with the collection's groups. Each run takes its own part of a stream of 200,000 searches, so a search comes again only as people repeat it (common words often); the server keeps results until the user's index changes, the raw floor does not.`,
    '',
    'DESIGN §6: search with facets p50 ≤ 10 ms; a page p50 ≤ 3 ms.',
  ];
  for (const result of report.results) {
    lines.push(
      '',
      `## ${result.concurrency} connection${result.concurrency === 1 ? '' : 's'}`,
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
    '## Raw floor: the same index and store calls in-process, one at a time',
    '',
    '| what | p50 (ms) | p99 (ms) |',
    '|---|---:|---:|',
    `| search with groups | ${report.rawFloor.search.p50} | ${report.rawFloor.search.p99} |`,
    `| first page with groups | ${report.rawFloor.page.p50} | ${report.rawFloor.page.p99} |`,
  );
  return `${lines.join('\n')}\n`;
}
