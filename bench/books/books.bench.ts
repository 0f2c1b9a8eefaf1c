import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { BOOK_SEARCH_INDEX_FILE } from '../../server/src/services.ts';
import { migrate, openStorage, sqliteFileIn } from '../../server/src/storage/database.ts';
import type { IndexSourceOptions } from '../../server/src/books/search-index/index-sources.ts';
import { type RunningServer, startServer } from '../../web/e2e/server.ts';
import { closedLoop } from '../lib/closed-loop.ts';
import { fixedReplyServer } from '../lib/fixed-reply.ts';
import { currentMemoryMb, load, machine, median, sampleMemory } from '../lib/measure.ts';
import { freshPostgresDatabase } from '../mixed/postgres-database.ts';
import { type Report, type DatabaseRun, type Database, type Loads, markdown, SHAPES } from './books-report.ts';
import { compareWithCalibre } from './calibre-comparison.ts';
import { calibreJsonFile } from './generate-catalogue.ts';
import { booksWritten, importFile, searchAnswered, searchIndexReady, signIn, signUp } from './organiser-api.ts';
import { organiserSearch, reader, type SearchShape, streamMix, typedQueries } from './query-stream.ts';
import { inProcessSearch } from './search-floor.ts';

const OUT = path.resolve(import.meta.dirname, '../out');
const RESULTS = path.resolve(import.meta.dirname, '../results');
/** The catalogue's size; the budgets are for 1,000,000 books, a smaller one tries the whole run quickly. */
const BOOKS = Number(process.env.BENCH_BOOKS ?? 1_000_000);
/** The size at which the server's memory at rest has a budget of its own. */
const SMALL_BOOKS = Number(process.env.BENCH_SMALL_BOOKS ?? 20_000);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** `books` (import, search, memory, restart, on each database) and `calibre` (the comparison, slow: kept from its last run unless asked). */
const PARTS = (process.env.BENCH_PARTS ?? 'books').split(',');
const CALIBRE_SIZES = (process.env.BENCH_CALIBRE ?? '20000,200000').split(',').map(Number);
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as Database[];
/** Where the PostgreSQL run makes (and afterwards drops) a database of its own. */
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** How long after the rounds the memory at rest is read (docs/budgets.md: two minutes). */
const REST_SECONDS = Number(process.env.BENCH_REST_SECONDS ?? 120);
/** The empty server is left this long before its memory is read: its start's work long done, as at rest. */
const EMPTY_REST_SECONDS = 40;
/** Queries of each never-repeated stream: more than the rounds ask at 1,000,000 books (about 160,000 at 5,000 req/s). */
const STREAM_LENGTH = 400_000;
/** Searches asked of the small catalogue before it is left at rest, as a household's evening of them. */
const SMALL_SEARCHES = 500;
/** Queries of each stream the in-process floor runs; the server's rounds take the stream after them. */
const FLOOR_QUERIES = 2000;

const loads: Loads = [];

/** How a process was started, as the budgets' "Node's defaults" are checked: its command line and NODE_OPTIONS. */
function commandOf(pid: number): string {
  const [node, ...args] = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const options = /(?:^|\0)NODE_OPTIONS=([^\0]*)/.exec(fs.readFileSync(`/proc/${pid}/environ`, 'utf8'))?.[1];
  return `${options ? `NODE_OPTIONS='${options}' ` : ''}${path.basename(node!)} ${args.join(' ')}`;
}
const loadAverage = () => os.loadavg().map((l) => +l.toFixed(1));

/** Runs one part of the benchmark, noting how long it took and the machine's load average before and after it. */
async function part<T>(name: string, work: () => Promise<T>): Promise<T> {
  const before = loadAverage();
  const started = performance.now();
  console.log(`  ${name}… (load average ${before.join(' / ')})`);
  const result = await work();
  loads.push({ part: name, seconds: Math.round((performance.now() - started) / 1000), before, after: loadAverage() });
  return result;
}

/** Writes bench/results/books.{json,md}; the calibre comparison, when not run, keeps its last figures. */
export async function benchBooks() {
  const resultsFile = path.join(RESULTS, 'books.json');
  const last = fs.existsSync(resultsFile) ? (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Partial<Report>) : {};
  const report: Partial<Report> = { ...(PARTS.includes('books') ? await benchCatalogue() : last), calibre: last.calibre };
  if (PARTS.includes('calibre')) report.calibre = await compareWithCalibre(CALIBRE_SIZES, { seconds: LOAD_SECONDS, rounds: ROUNDS });
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'books.md'), markdown(report));
  console.log(markdown(report));
}

async function benchCatalogue(): Promise<Report> {
  const file = await calibreJsonFile(OUT, BOOKS);
  // Made before any server starts: at a million books they take a minute of this thread.
  const queries = { titles: typedQueries(BOOKS, STREAM_LENGTH, 7), 'all fields': typedQueries(BOOKS, STREAM_LENGTH, 8) };
  const streams = Object.fromEntries(SHAPES.map((shape) => [shape, queries[shape].map((words) => organiserSearch(words, shape, 10))])) as Record<SearchShape, string[]>;
  const migrated = await migratedEmptyDatabase();
  // The floor is measured before the first import and after each: each import's ratio is to the
  // rounds beside it, since this machine's speed moves by half within minutes.
  const floors = [await part('import floor', () => importFloor(file, migrated))];
  const databases: Partial<Record<Database, DatabaseRun>> = {};
  for (const database of DATABASES) {
    databases[database] = await benchDatabase(database, file, streams, async () => {
      floors.push(await part('import floor', () => importFloor(file, migrated)));
      return (floors.at(-2)! + floors.at(-1)!) / 2;
    });
  }
  const smallRestMb = await part(`memory at ${SMALL_BOOKS} books`, () => memoryAtRest(SMALL_BOOKS));
  return { machine: machine(), books: BOOKS, fileMb: Math.round(fs.statSync(file).size / 2 ** 20), secondsPerRound: LOAD_SECONDS, rounds: ROUNDS, restSeconds: REST_SECONDS, floors, stream: streamMix(BOOKS, queries.titles), databases, small: { books: SMALL_BOOKS, searches: SMALL_SEARCHES, restMb: smallRestMb }, loads };
}

/** An empty database the server migrated: the floor takes its books table from it. */
async function migratedEmptyDatabase(): Promise<string> {
  const dataDir = path.join(OUT, 'migrated-empty');
  fs.rmSync(dataDir, { recursive: true, force: true });
  const storage = await openStorage({ dataDir });
  await migrate(storage);
  await storage.close();
  return sqliteFileIn(dataDir);
}

/** The import's floor (import-floor.ts) in a process of its own, in books a second. */
async function importFloor(file: string, migrated: string): Promise<number> {
  const floorFile = path.join(OUT, 'import-floor.sqlite');
  const clear = () => ['', '-wal', '-shm'].forEach((suffix) => fs.rmSync(`${floorFile}${suffix}`, { force: true }));
  clear();
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(import.meta.dirname, 'import-floor.ts'), file, migrated, floorFile]);
  clear();
  const { books, seconds } = JSON.parse(stdout) as { books: number; seconds: number };
  if (books !== BOOKS) throw new Error(`the floor inserted ${books} books of ${BOOKS}`);
  console.log(`    floor: ${Math.round(books / seconds)} books/s`);
  return Math.round(books / seconds);
}

/** A server on a data folder of the benchmark's, which outlives the server: it is started again on it. */
async function serverOn(dataDir: string, databaseUrl?: string) {
  return startServer({ DATA_DIR: dataDir, MAX_UPLOAD_MB: '100000', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, { needsWebClient: false });
}

async function benchDatabase(database: Database, file: string, streams: Record<SearchShape, string[]>, floorAfterImport: () => Promise<number>): Promise<DatabaseRun> {
  const dataDir = path.join(OUT, `server-${database}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const postgres = database === 'postgres' ? await freshPostgresDatabase(POSTGRES_URL, `organiser_bench_books_${process.pid}`) : undefined;
  let server = await serverOn(dataDir, postgres?.url);
  try {
    const serverCommand = commandOf(server.pid);
    const imported = await part(`import, ${database}`, async () => {
      await sleep(EMPTY_REST_SECONDS * 1000);
      const emptyMb = currentMemoryMb(server.pid);
      const token = await signUp(server);
      const sampled = sampleMemory(server.pid, 100);
      const written = booksWritten(server, BOOKS);
      const { seconds, books } = await importFile(server, token, file);
      const index = await searchIndexReady(server, books);
      return { emptyMb, books, writtenSeconds: +(await written).toFixed(1), seconds: +seconds.toFixed(1), indexSeconds: +index.seconds.toFixed(1), peakMb: sampled.stop() };
    });
    const floorBooksPerSecond = await floorAfterImport();
    const where: IndexSourceOptions = postgres ? { kind: 'postgres', connectionString: postgres.url } : { kind: 'sqlite', file: sqliteFileIn(dataDir) };
    const searched = await part(`search, ${database}`, () => searchRounds(server, streams));
    const rest = await part(`rest, ${database}`, async () => {
      const restingSince = performance.now();
      const inProcess = await inProcessSearch(where, { titles: streams.titles.slice(0, FLOOR_QUERIES), 'all fields': streams['all fields'].slice(0, FLOOR_QUERIES) });
      await sleep(Math.max(0, REST_SECONDS * 1000 - (performance.now() - restingSince)));
      return { inProcess, restMb: currentMemoryMb(server.pid) };
    });
    const restart = await part(`restart, ${database}`, async () => {
      const token = await signIn(server);
      await server.stop();
      let started = performance.now();
      server = await serverOn(dataDir, postgres?.url);
      await searchAnswered(server, token, streams.titles[0]!);
      const fromFileSeconds = +((performance.now() - started) / 1000).toFixed(2);
      const fromFile = await searchIndexReady(server, imported.books);
      if (fromFile.from !== 'file') throw new Error(`the restarted server's index came from the ${fromFile.from}, not its file`);
      await server.stop();
      fs.rmSync(path.join(dataDir, BOOK_SEARCH_INDEX_FILE));
      started = performance.now();
      server = await serverOn(dataDir, postgres?.url);
      await searchIndexReady(server, imported.books);
      return { fromFileSeconds, buildSeconds: +((performance.now() - started) / 1000).toFixed(1) };
    });
    const booksPerSecond = Math.round(imported.books / imported.writtenSeconds);
    return { serverCommand, import: { ...imported, booksPerSecond, floorBooksPerSecond }, ...searched, ...rest, restart };
  } catch (error) {
    console.error(`server exit code ${server.child.exitCode}, signal ${server.child.signalCode}:\n${server.logs().slice(-5000)}`);
    throw error;
  } finally {
    await server.stop();
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Rounds of each shape at one client (latency) and at 50 connections (rate), and of the HTTP
 * floor: the same framework answering the same bytes with no search. Each query of the streams
 * is asked once in the whole run, on each database.
 */
async function searchRounds(server: RunningServer, streams: Record<SearchShape, string[]>) {
  const headers = { authorization: `Bearer ${await signIn(server)}` };
  const next = { titles: reader(streams.titles.slice(FLOOR_QUERIES)), 'all fields': reader(streams['all fields'].slice(FLOOR_QUERIES)) };
  const sampleBody = await (await fetch(`${server.baseUrl}${next.titles()}`, { headers })).text();
  const floor = await fixedReplyServer([{ method: 'GET', url: '/api/books', body: sampleBody }]);
  const memory = sampleMemory(server.pid, 100);
  type Round = Record<string, { p50: number; p99: number; requestsPerSecond: number; errors: number }>;
  const rounds: Round[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const measured: Round = {};
      for (const shape of SHAPES) {
        measured[`${shape}, 1 client`] = await closedLoop(server.baseUrl, next[shape], { clients: 1, seconds: LOAD_SECONDS, headers });
        measured[`${shape}, 50 connections`] = await load(server.baseUrl, next[shape], { seconds: LOAD_SECONDS, headers });
      }
      measured['HTTP floor, 50 connections'] = await load(floor.baseUrl, () => '/api/books', { seconds: LOAD_SECONDS });
      const failed = Object.entries(measured).filter(([, r]) => r.errors > 0);
      if (failed.length > 0) throw new Error(`search round ${round + 1}: errors in ${failed.map(([what, r]) => `${what} (${r.errors})`).join(', ')}`);
      console.log(`    round ${round + 1}: ${Object.entries(measured).map(([what, r]) => `${what}: p50 ${r.p50} p99 ${r.p99} ms ${r.requestsPerSecond} req/s`).join('; ')}`);
      rounds.push(measured);
    }
  } finally {
    floor.stop();
  }
  const medians = Object.fromEntries(
    Object.keys(rounds[0]!).map((what) => [
      what,
      { p50: median(rounds.map((r) => r[what]!.p50)), p99: median(rounds.map((r) => r[what]!.p99)), requestsPerSecond: median(rounds.map((r) => r[what]!.requestsPerSecond)) },
    ]),
  );
  return { medians, underLoadMb: memory.stop() };
}

/** A server with `books` books, searched a little, then left alone: its memory at rest. */
async function memoryAtRest(books: number): Promise<number> {
  const server = await startServer({ MAX_UPLOAD_MB: '100000' }, { needsWebClient: false });
  try {
    const token = await signUp(server);
    await importFile(server, token, await calibreJsonFile(OUT, books));
    await searchIndexReady(server, books);
    for (const words of typedQueries(books, SMALL_SEARCHES, 9)) {
      await (await fetch(`${server.baseUrl}${organiserSearch(words, 'all fields', 10)}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    }
    await sleep(REST_SECONDS * 1000);
    return currentMemoryMb(server.pid);
  } finally {
    await server.stop();
  }
}
