import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type RunningServer, startServer } from '../../web/e2e/server.ts';
import { type BenchRequest, bookmarkPageStream, bookmarkSearchStream } from '../bookmarks/bookmark-requests.ts';
import { bookQueryStream } from '../books/book-queries.ts';
import { searchIndexBuilt } from '../books/organiser-api.ts';
import { reader } from '../books/query-stream.ts';
import { machine } from '../lib/measure.ts';
import { backendsOf, cpuDuring } from '../lib/process-cpu.ts';
import { type BenchUser, createTasks, importBookmarks, loadCatalogue, signInAgain, signUpUsers } from './mixed-setup.ts';
import { freshPostgresDatabase } from './postgres-database.ts';

const RESULTS = path.resolve(import.meta.dirname, '../results');
const BOOKS = Number(process.env.BENCH_BOOKS ?? 100_000);
const USERS = Number(process.env.BENCH_USERS ?? 5);
const BOOKMARKS = Number(process.env.BENCH_BOOKMARKS ?? 10_000);
const TASKS = Number(process.env.BENCH_TASKS ?? 200);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
/** Where the benchmark makes (and afterwards drops) a database of its own. */
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;

const KINDS = ['book search', 'bookmark list', 'bookmark search', 'task list'] as const;
type Kind = (typeof KINDS)[number];
type Latency = { p50: number; p99: number; requestsPerSecond: number; requests: number; errors: number };
/** The mix without book search: what is left once book searches are answered from memory. */
const OTHERS = KINDS.filter((kind) => kind !== 'book search');
type Run = {
  what: 'mix' | 'mix without book search' | Kind;
  /** CPU time per request, in ms: of the server process, and of its PostgreSQL backends. */
  serverCpuMs: number;
  databaseCpuMs: number;
  loadAverage: number[];
} & Latency;
type DatabaseResult = { database: string; settings?: Record<string, string>; setupSeconds: number; runs: Run[] };

/**
 * Each kind's next request, from each user in turn. Book searches are never repeated (the stream
 * runs on across runs); bookmark searches come from one stream too, so each is a user's first ask
 * of it; list pages repeat, as people open them again.
 */
function requestMaker(users: BenchUser[]) {
  const books = reader(bookQueryStream(BOOKS));
  const bookmarkSearches = reader(bookmarkSearchStream(BOOKMARKS, 300_000));
  const pages = bookmarkPageStream(1000);
  let turn = 0;
  const make: Record<Kind, () => BenchRequest> = {
    'book search': () => ({ method: 'GET', path: books() }),
    'bookmark list': () => pages[turn % pages.length]!,
    'bookmark search': bookmarkSearches,
    'task list': () => ({ method: 'GET', path: '/schedule?pageSize=20' }),
  };
  return (kind: Kind) => {
    const user = users[turn++ % users.length]!;
    const request = make[kind]();
    return { ...request, headers: { ...request.headers, authorization: `Bearer ${user.token}` } };
  };
}

async function load(baseUrl: string, next: () => BenchRequest): Promise<Latency> {
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: LOAD_SECONDS,
    requests: [
      {
        setupRequest: (request) => {
          const chosen = next();
          return { ...request, method: chosen.method, path: chosen.path, body: chosen.body, headers: { ...request.headers, ...chosen.headers } };
        },
      },
    ],
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    errors: result.errors + result.non2xx,
  };
}

/**
 * The server answers the requests a run left in flight after their clients have gone; one more,
 * queued behind them for the same database connections, returns once they are done, so that the
 * next run does not pay for them.
 */
async function settle(server: RunningServer, user: BenchUser) {
  const response = await fetch(`${server.baseUrl}/schedule?pageSize=1`, { headers: { authorization: `Bearer ${user.token}` } });
  await response.arrayBuffer();
}

async function measure(server: RunningServer, users: BenchUser[], backends: () => Promise<number[]>): Promise<Run[]> {
  const next = requestMaker(users);
  const runs: Run[] = [];
  const record = async (what: Run['what'], pick: () => BenchRequest) => {
    await settle(server, users[0]!);
    const { result: latency, serverMs, databaseMs } = await cpuDuring(server.pid, backends, () => load(server.baseUrl, pick));
    const perRequest = (ms: number) => +(ms / Math.max(1, latency.requests)).toFixed(2);
    const run = { what, ...latency, serverCpuMs: perRequest(serverMs), databaseCpuMs: perRequest(databaseMs), loadAverage: os.loadavg().map((value) => +value.toFixed(2)) };
    runs.push(run);
    console.log(`  ${what}: ${run.requestsPerSecond} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, errors ${run.errors}; CPU per request ${run.serverCpuMs} ms server, ${run.databaseCpuMs} ms PostgreSQL; load average ${run.loadAverage.join(' ')}`);
  };
  let turn = 0;
  await record('mix', () => next(KINDS[turn++ % KINDS.length]!));
  await record('mix without book search', () => next(OTHERS[turn++ % OTHERS.length]!));
  for (const kind of KINDS) await record(kind, () => next(kind));
  return runs;
}

async function benchDatabase(database: 'sqlite' | 'postgres'): Promise<DatabaseResult> {
  const name = `organiser_bench_mixed_${process.pid}`;
  const postgres = database === 'postgres' ? await freshPostgresDatabase(POSTGRES_URL, name) : undefined;
  const backends = async () => (postgres ? backendsOf(POSTGRES_URL, name) : []);
  const server = await startServer({ MAX_UPLOAD_MB: '100000', ALLOW_SIGNUP: 'true', ...(postgres ? { DATABASE_URL: postgres.url } : {}) }, { needsWebClient: false });
  try {
    console.log(`▷ ${database}`);
    const started = performance.now();
    const users = await signUpUsers(server, USERS);
    await loadCatalogue(server, users[0]!, BOOKS);
    await importBookmarks(server, users, BOOKMARKS);
    await createTasks(server, users, TASKS);
    // Book searches are measured as a running server answers them: from the word index, built after the load.
    await searchIndexBuilt(server, BOOKS);
    const setupSeconds = Math.round((performance.now() - started) / 1000);
    console.log(`  ${BOOKS} books, ${USERS} users with ${BOOKMARKS} bookmarks and ${TASKS} tasks each, in ${setupSeconds} s`);
    return { database, settings: postgres?.settings, setupSeconds, runs: await measure(server, await signInAgain(server, users), backends) };
  } catch (error) {
    console.error(server.logs().slice(-5000));
    throw error;
  } finally {
    await server.stop();
    await postgres?.drop();
  }
}

type Report = {
  machine: ReturnType<typeof machine>;
  books: number;
  users: number;
  bookmarksPerUser: number;
  tasksPerUser: number;
  connections: number;
  secondsPerRun: number;
  results: DatabaseResult[];
  /** PostgreSQL's req/s over SQLite's, for each run. */
  postgresOverSqlite: Record<string, number>;
};

export async function benchMixed() {
  const results: DatabaseResult[] = [];
  for (const database of DATABASES) results.push(await benchDatabase(database));
  const rate = (database: string, what: Run['what']) =>
    results.find((r) => r.database === database)?.runs.find((run) => run.what === what)?.requestsPerSecond;
  const ratios = (results[0]?.runs ?? []).flatMap((run) => {
    const sqlite = rate('sqlite', run.what);
    const postgres = rate('postgres', run.what);
    return sqlite && postgres ? [[run.what, +(postgres / sqlite).toFixed(2)] as const] : [];
  });
  const report: Report = {
    machine: machine(),
    books: BOOKS,
    users: USERS,
    bookmarksPerUser: BOOKMARKS,
    tasksPerUser: TASKS,
    connections: CONNECTIONS,
    secondsPerRun: LOAD_SECONDS,
    results,
    postgresOverSqlite: Object.fromEntries(ratios),
  };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'mixed.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'mixed.md'), markdown(report));
  console.log(markdown(report));
}

function markdown(report: Report) {
  const m = report.machine;
  const lines = [
    '# Mixed load, SQLite and PostgreSQL',
    '',
    `Machine: ${m.cores} × ${m.cpu}, ${m.memoryGb} GiB, ${m.platform}, Node ${m.node}; ${m.date}. The load generator (autocannon), the server and PostgreSQL share the machine.`,
    '',
    `${report.books} books; ${report.users} users with ${report.bookmarksPerUser} bookmarks each (imported as a browser bookmarks file, so indexed) and ${report.tasksPerUser} tasks each. ${report.connections} connections for ${report.secondsPerRun} s per run, each request from the next user in turn. The mix takes book search, bookmark list, bookmark search and task list in turn; then the mix without book search; then each alone, once the word index holds the catalogue. Book searches are never repeated; bookmark searches are each a user's first ask of them; list pages repeat. The load average is the machine's after each run (1, 5, 15 min); where others load the machine, the CPU time a request costs the server and its PostgreSQL backends varies less than the rate.`,
    '',
    'docs/budgets.md: PostgreSQL under the mix ≥ ½ of SQLite\'s req/s on the same machine, p99 ≤ 250 ms.',
    '',
    '| database | run | req/s | p50 (ms) | p99 (ms) | errors | CPU ms per request: server | PostgreSQL | load average |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...report.results.flatMap((result) =>
      result.runs.map((run) => `| ${result.database} | ${run.what} | ${run.requestsPerSecond} | ${run.p50} | ${run.p99} | ${run.errors} | ${run.serverCpuMs} | ${run.databaseCpuMs} | ${run.loadAverage.join(' ')} |`),
    ),
  ];
  for (const result of report.results) {
    if (result.settings) lines.push('', `${result.database} settings: ${Object.entries(result.settings).map(([name, value]) => `${name} ${value}`).join(', ')}.`);
  }
  const ratios = Object.entries(report.postgresOverSqlite);
  if (ratios.length > 0) lines.push('', `PostgreSQL's req/s over SQLite's: ${ratios.map(([what, ratio]) => `${what} ${ratio}`).join('; ')}.`);
  return `${lines.join('\n')}\n`;
}
