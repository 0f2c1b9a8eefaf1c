import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSqliteCatalogue } from '../../server/src/books/books.search.sqlite.ts';
import { catalogueIndex, catalogueIndexBuilder } from '../../server/src/books/word-index/catalogue-index.ts';
import { type IndexSourceOptions, openIndexSource } from '../../server/src/books/word-index/index-sources.ts';
import type { BookSearchField } from '../../contract/books.ts';
import { fromCalibreJson } from '../../server/src/books/import/calibre-json.ts';
import { migrate, openStorage } from '../../server/src/storage/database.ts';
import { catalogueQuery } from '../../server/src/books/books.search.ts';
import { replyPageJson } from '../../server/src/books/book-row.ts';
import { type RunningServer, startServer } from '../../web/e2e/server.ts';
import { freshPostgresDatabase } from '../mixed/postgres-database.ts';
import { fixedReplyServer } from '../lib/fixed-reply.ts';
import { closedLoop } from '../lib/closed-loop.ts';
import { currentMemoryMb, load, machine, median, peakMemoryMb, percentile, sampleMemory } from '../lib/measure.ts';
import { type CalibreComparison, calibreMarkdown, compareWithCalibre } from './calibre-comparison.ts';
import { generateBooks, writeCalibreCsv, writeCalibreJson } from './generate-catalogue.ts';
import { importFile, searchIndexBuilt, signIn, signUp } from './organiser-api.ts';
import { organiserSearch, reader, type SearchShape, typedQueries } from './query-stream.ts';

const OUT = path.resolve(import.meta.dirname, '../out');
const RESULTS = path.resolve(import.meta.dirname, '../results');
const SIZES = (process.env.BENCH_BOOKS ?? '100000,1000000').split(',').map(Number);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The parts to run: `import` (the loads, their floor and the search under load) and `calibre` (the comparison). */
const PARTS = (process.env.BENCH_PARTS ?? 'import,calibre').split(',');
const CALIBRE_SIZES = (process.env.BENCH_CALIBRE ?? '20000,200000').split(',').map(Number);
const CALIBRE_SECONDS = Number(process.env.BENCH_CALIBRE_SECONDS ?? LOAD_SECONDS);
/** The import part's databases: SQLite loads both files; PostgreSQL the JSON file, then is searched too. */
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as Database[];
/** Where the PostgreSQL run makes (and afterwards drops) a database of its own. */
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The repeated mix: this many distinct queries, asked over and over. */
const MIX_QUERIES = 200;
/**
 * How long the server is left alone after the search rounds before its memory at rest is read:
 * past the minute after which idle searching threads end, and the main thread's next look at
 * whether it rests (word-indexed-catalogue.ts, idle-collection.ts).
 */
const REST_SECONDS = 80;
/**
 * How long the empty server is left alone before its memory is read, the first part of the floor
 * beside the memory at rest: past its checkpointing thread's 30 s without a write and the main
 * thread's look at whether it rests (wal-checkpoints.ts, idle-collection.ts).
 */
const EMPTY_REST_SECONDS = 40;

type Database = 'sqlite' | 'postgres';
type ImportResult = {
  database?: Database;
  kind: 'json' | 'csv';
  books: number;
  fileMb: number;
  seconds: number;
  booksPerSecond: number;
  peakMb: number;
  loadPeakMb?: number;
  /** The floor measured in the same run: a row kept from an earlier run keeps its own. */
  floorBooksPerSecond?: number;
};

async function catalogueFile(kind: 'json' | 'csv', count: number): Promise<string> {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `calibre-${count}.${kind}`);
  if (!fs.existsSync(file)) {
    console.log(`  generating ${path.basename(file)}…`);
    await (kind === 'json' ? writeCalibreJson(file, count) : writeCalibreCsv(file, count));
  }
  return file;
}

/**
 * The import's floor: the same catalogue load (one transaction, the same statements and word
 * indexes) of as many books as the import, each made in memory as it is written, in-process: what
 * is left when the upload, the streaming and the parsing cost nothing. As many books, because
 * SQLite's rate falls as the catalogue grows (measured: 25,000 books/s over the first 100,000 of
 * a million, 16,000 over the last); made as written, because a million books held parsed cost the
 * floor's own collections more than making them (17,414 books/s held, 19,453 made as written).
 */
async function writeFloor(count: number): Promise<{ books: number; booksPerSecond: number }> {
  fs.mkdirSync(OUT, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(OUT, 'floor-'));
  const storage = await openStorage({ dataDir });
  try {
    await migrate(storage);
    const catalogue = createSqliteCatalogue(storage.db, storage.sqliteFile!);
    const started = performance.now();
    await catalogue.load('replace', async (write) => {
      for (const book of generateBooks(count)) {
        await write(fromCalibreJson({ ...book, identifiers: { isbn: book.isbn }, authors: book.authors.split(' & ') }));
      }
    });
    await catalogue.close();
    return { books: count, booksPerSecond: Math.round(count / ((performance.now() - started) / 1000)) };
  } finally {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The never-repeated stream of one shape: a query of the stream is asked once in the whole run. */
const shapeStream = (shape: SearchShape, seed: number) =>
  typedQueries(Math.max(...SIZES), 400_000, seed).map((words) => organiserSearch(words, shape, 10));

/** The bytes of a built index: all of it is typed arrays in shared memory, each counted once. */
function sharedBytes(value: unknown, seen = new Set<SharedArrayBuffer>()): number {
  if (ArrayBuffer.isView(value) && value.buffer instanceof SharedArrayBuffer) {
    if (seen.has(value.buffer)) return 0;
    seen.add(value.buffer);
    return value.buffer.byteLength;
  }
  if (typeof value !== 'object' || value === null) return 0;
  return Object.values(value).reduce((sum: number, item) => sum + sharedBytes(item, seen), 0);
}

/**
 * The floor: what the word index's thread does for each query (the index's search, the page's
 * rows read from the same file and written as the reply's JSON), in-process, one at a time,
 * without HTTP or the hop to the thread.
 */
async function rawQueryLatencies(where: IndexSourceOptions, streams: Record<SearchShape, string[]>) {
  const source = openIndexSource(where);
  const builder = catalogueIndexBuilder();
  const started = performance.now();
  const version = await source.snapshot((row) => builder.add(row));
  const data = builder.finish();
  const index = catalogueIndex(data);
  const buildSeconds = +((performance.now() - started) / 1000).toFixed(1);
  const indexMb = Math.round(sharedBytes(data) / 2 ** 20);
  const latencies = {} as Record<SearchShape, { p50: number; p99: number; mean: number }>;
  for (const shape of SHAPES) {
    const times: number[] = [];
    for (const query of streams[shape]) {
      const params = new URL(query, 'http://x').searchParams;
      const { identifier, ...question } = catalogueQuery({
        keys: params.get('keys') ?? '',
        fields: (params.get('fields') ?? 'title').split(',') as BookSearchField[],
        format: '',
        from: 0,
        size: 10,
        includeComment: false,
      });
      const { comments, ...indexQuery } = question;
      const begun = performance.now();
      const answer = await source.answer(version, { identifier, comments }, (identified) => index.search(indexQuery, identified));
      if (answer !== 'stale') replyPageJson(answer.rows, indexQuery.from, comments);
      times.push(performance.now() - begun);
    }
    const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
    times.sort((a, b) => a - b);
    latencies[shape] = { p50: +percentile(times, 50).toFixed(3), p99: +percentile(times, 99).toFixed(3), mean: +mean.toFixed(3) };
  }
  await source.close();
  return { buildSeconds, indexMb, cores: os.availableParallelism(), ...latencies };
}

/**
 * Writes bench/results/books.{json,md}. A part not run this time keeps what the last run measured,
 * so that the comparison with calibre can be run alone.
 */
export async function benchBooks() {
  const resultsFile = path.join(RESULTS, 'books.json');
  const report: Partial<Report> = fs.existsSync(resultsFile) ? (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Report) : {};
  if (PARTS.includes('import')) {
    const measured = await benchImports();
    // A database not run this time keeps its last figures, so that PostgreSQL can be measured alone.
    report.imports = [...(report.imports ?? []).filter((row) => !DATABASES.includes(row.database ?? 'sqlite')), ...measured.imports];
    for (const key of ['machine', 'importFloor', 'search', 'postgresSearch'] as const) if (measured[key]) Object.assign(report, { [key]: measured[key] });
  }
  if (PARTS.includes('calibre')) {
    const measured = await compareWithCalibre(CALIBRE_SIZES, { seconds: CALIBRE_SECONDS, rounds: ROUNDS });
    // A library size not run this time keeps its last figures (a 200,000-book library takes long to build).
    const kept = <T extends { books: number }>(rows: T[] | undefined) => (rows ?? []).filter((row) => !CALIBRE_SIZES.includes(row.books));
    report.calibre = { ...measured, libraries: [...kept(report.calibre?.libraries), ...measured.libraries], rows: [...kept(report.calibre?.rows), ...measured.rows] };
  }
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'books.md'), markdown(report));
  console.log(markdown(report));
}

async function benchImports() {
  // Made before any server starts: at a million books they take a minute of this thread, which
  // would outlast the kept-alive connection the searches then go out on.
  const streams = searchStreams();
  const imports: ImportResult[] = [];
  const searches: Partial<Record<Database, SearchResult>> = {};
  // The floor is measured before the first import and after each, with no server running: each
  // import's ratio is to the two rounds beside it, since this machine's speed moves by half within
  // minutes (an import measured apart from its floor read 0.59x and, alone a few minutes later,
  // 0.76-0.78x).
  const floors: number[] = [];
  const floorRound = async () => {
    const floor = await writeFloor(Math.max(...SIZES));
    floors.push(floor.booksPerSecond);
    console.log(`  import floor round ${floors.length}: ${floor.books} books made in memory and written in-process at ${floor.booksPerSecond} books/s`);
    return floor.booksPerSecond;
  };
  let floorBefore = await floorRound();
  for (const database of DATABASES) {
    for (const count of SIZES) {
      for (const kind of database === 'sqlite' ? (['json', 'csv'] as const) : (['json'] as const)) {
        const file = await catalogueFile(kind, count);
        const fileMb = Math.round(fs.statSync(file).size / 2 ** 20);
        const postgres = database === 'postgres' ? await freshPostgresDatabase(POSTGRES_URL, `organiser_bench_books_${process.pid}`) : undefined;
        const server = await startServer({ MAX_UPLOAD_MB: '100000', LOG_LEVEL: 'warn', ...(postgres ? { DATABASE_URL: postgres.url } : {}) }, { needsWebClient: false });
        try {
          const searched = kind === 'json' && count === Math.max(...SIZES);
          // The empty server's memory at rest, the first part of the whole server's floor at a million books.
          if (searched) await sleep(EMPTY_REST_SECONDS * 1000);
          const startedMb = currentMemoryMb(server.pid);
          const token = await signUp(server);
          const sampled = sampleMemory(server.pid, 100);
          const { seconds, books } = await importFile(server, token, file);
          const loadPeakMb = sampled.stop();
          const result: ImportResult = { database, kind, books, fileMb, seconds: +seconds.toFixed(2), booksPerSecond: Math.round(books / seconds), peakMb: peakMemoryMb(server.pid), loadPeakMb };
          imports.push(result);
          console.log(`  import ${database} ${kind} ${books} books (${fileMb} MB): ${result.booksPerSecond} books/s, peak ${result.loadPeakMb} MB sampled through the load, ${result.peakMb} MB at the reply`);
          if (searched) {
            const where: IndexSourceOptions = postgres
              ? { kind: 'postgres', connectionString: postgres.url }
              : { kind: 'sqlite', file: path.join(server.dataDir, 'organiser.sqlite') };
            searches[database] = await benchSearch(server, where, streams, startedMb);
          }
        } catch (error) {
          console.error(`server exit code ${server.child.exitCode}, signal ${server.child.signalCode}:\n${server.logs().slice(-5000)}`);
          throw error;
        } finally {
          await server.stop();
          await postgres?.drop();
        }
        // An import that failed has thrown: the last row is this import's.
        const floorAfter = await floorRound();
        imports.at(-1)!.floorBooksPerSecond = Math.round((floorBefore + floorAfter) / 2);
        floorBefore = floorAfter;
      }
    }
  }
  const importFloor = { books: Math.max(...SIZES), rounds: floors.length, booksPerSecond: median(floors) };
  return {
    machine: machine(),
    imports,
    importFloor,
    search: searches.sqlite,
    postgresSearch: searches.postgres,
  };
}

const SHAPES: SearchShape[] = ['titles', 'all fields'];

/** A search's results; one kept from a run before the empty server was left to rest has no `emptyRestSeconds`. */
type SearchResult = Omit<Awaited<ReturnType<typeof benchSearch>>, 'emptyRestSeconds'> & { emptyRestSeconds?: number };

/** The never-repeated streams of each shape, and the repeated mix from a stream of its own, which no round reaches. */
function searchStreams() {
  return {
    titles: shapeStream('titles', 7),
    'all fields': shapeStream('all fields', 8),
    mix: shapeStream('titles', 9).slice(0, MIX_QUERIES),
  };
}

async function benchSearch(server: RunningServer, where: IndexSourceOptions, { mix, ...streams }: ReturnType<typeof searchStreams>, startedMb: number) {
  const books = Math.max(...SIZES);
  const waitedSeconds = await searchIndexBuilt(server, books);
  console.log(`  word index built ${waitedSeconds.toFixed(1)} s after the import answered`);
  const token = await signIn(server);
  const next = { titles: reader(streams.titles.slice(2000)), 'all fields': reader(streams['all fields'].slice(2000)) };
  const headers = { authorization: `Bearer ${token}` };
  const sampleBody = await (await fetch(`${server.baseUrl}${mix[0]}`, { headers })).text();
  const floor = await fixedReplyServer([{ method: 'GET', url: '/api/books', body: sampleBody }]);
  // The mix is asked once before it is measured, as a household has asked its searches before.
  for (const query of mix) await (await fetch(`${server.baseUrl}${query}`, { headers })).arrayBuffer();
  type Load = Awaited<ReturnType<typeof load>>;
  const rounds: Array<Record<string, Load>> = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const measured: Record<string, Load> = {};
      for (const shape of SHAPES) {
        measured[`${shape}, 1 client`] = await closedLoop(server.baseUrl, next[shape], { clients: 1, seconds: LOAD_SECONDS, headers });
        measured[`${shape}, 50 connections`] = await load(server.baseUrl, next[shape], { seconds: LOAD_SECONDS, headers });
      }
      let mixNext = 0;
      measured['repeated mix, 50 connections'] = await load(server.baseUrl, () => mix[mixNext++ % mix.length]!, { seconds: LOAD_SECONDS, headers });
      // The floor answers every path alike, so it may go round the mix as often as it likes.
      let floorNext = 0;
      measured['floor: same framework, same bytes, no search'] = await load(floor.baseUrl, () => mix[floorNext++ % mix.length]!, { seconds: LOAD_SECONDS });
      rounds.push(measured);
      const failed = Object.entries(measured).filter(([, r]) => r.errors > 0);
      if (failed.length > 0) throw new Error(`search round ${round + 1}: errors in ${failed.map(([what, r]) => `${what} (${r.errors})`).join(', ')}`);
      console.log(`  search round ${round + 1}: ${Object.entries(measured).map(([what, r]) => `${what}: p50 ${r.p50} p99 ${r.p99} ms ${r.requestsPerSecond} req/s`).join('; ')}`);
    }
  } finally {
    floor.stop();
  }
  const serverMb = currentMemoryMb(server.pid);
  const roundsEnded = performance.now();
  // The in-process floor runs meanwhile: the server is left alone.
  const raw = await rawQueryLatencies(where, {
    titles: streams.titles.slice(0, 2000),
    'all fields': streams['all fields'].slice(0, 2000),
  });
  await sleep(Math.max(0, REST_SECONDS * 1000 - (performance.now() - roundsEnded)));
  const restMb = currentMemoryMb(server.pid);
  console.log(`  server RSS ${serverMb} MB after the rounds, ${restMb} MB after ${REST_SECONDS} s at rest; the index ${raw.indexMb} MB`);
  const medians = Object.fromEntries(
    Object.keys(rounds[0]!).map((what) => [
      what,
      {
        p50: median(rounds.map((r) => r[what]!.p50)),
        p99: median(rounds.map((r) => r[what]!.p99)),
        requestsPerSecond: median(rounds.map((r) => r[what]!.requestsPerSecond)),
        errors: rounds.reduce((sum, r) => sum + r[what]!.errors, 0),
      },
    ]),
  );
  return { books, machine: machine(), measuredAt: new Date().toISOString(), loadAverage: os.loadavg().map((l) => +l.toFixed(1)), secondsPerRound: LOAD_SECONDS, rounds: rounds.length, indexWaitSeconds: +waitedSeconds.toFixed(1), startedMb, emptyRestSeconds: EMPTY_REST_SECONDS, serverMb, restMb, medians, raw };
}

type Report = {
  machine: ReturnType<typeof machine>;
  imports: ImportResult[];
  importFloor: { books: number; rounds: number; booksPerSecond: number };
  search?: SearchResult;
  postgresSearch?: SearchResult;
  calibre?: CalibreComparison;
};

function markdown(report: Partial<Report>) {
  const lines = ['# Books benchmark'];
  if (report.machine && report.imports && report.importFloor) lines.push(...importMarkdown(report as Report));
  if (report.calibre) lines.push('', ...calibreMarkdown(report.calibre));
  return `${lines.join('\n')}\n`;
}

function importMarkdown(report: Report) {
  const m = report.machine;
  const floor = report.importFloor.booksPerSecond;
  const lines = [
    '',
    `Machine: ${m.cores} × ${m.cpu}, ${m.memoryGb} GiB, ${m.platform}, Node ${m.node}; ${m.date}. Load generator (autocannon), server and PostgreSQL share the machine.`,
    '',
    '## Import (DESIGN §6: 1,000,000 books at ≥ 0.7× the SQLite floor measured in the same run, ≤ 300 MB)',
    '',
    '| database | file | books | size (MB) | seconds | books/s | floor beside it: the mean of the rounds just before and after it (books/s) | over the floor | server RSS through the load, sampled every 100 ms: highest (MB) | server peak RSS at the reply, the word index\'s build begun (MB) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.imports.map((r) => {
      // Rows from before each row kept its floor were measured in the run of the floor below.
      const own = r.floorBooksPerSecond ?? floor;
      return `| ${r.database ?? 'sqlite'} | Calibre ${r.kind.toUpperCase()} | ${r.books} | ${r.fileMb} | ${r.seconds} | ${r.booksPerSecond} | ${own} | ${(r.booksPerSecond / own).toFixed(2)}× | ${r.loadPeakMb ?? '—'} | ${r.peakMb} |`;
    }),
    `| sqlite | floor of the last run: the same load of ${report.importFloor.books} books made in memory as they are written, in-process, before the first import and after each (median of ${report.importFloor.rounds}) | ${report.importFloor.books} | — | — | ${floor} | ${floor} | 1× | — | — |`,
  ];
  if (report.search?.medians) lines.push('', ...searchMarkdown(report.search, 'SQLite'));
  if (report.postgresSearch?.medians) lines.push('', ...searchMarkdown(report.postgresSearch, 'PostgreSQL'));
  return lines;
}

/** The whole server's memory at a million books beside its floor: the empty server and the index, measured in the same run. */
function memoryMarkdown(s: SearchResult) {
  // A run before the empty server was left to rest read it as it started.
  const empty = s.emptyRestSeconds ? `with an empty catalogue, ${s.emptyRestSeconds} s after it started` : 'started with an empty catalogue';
  return `Server memory (RSS): ${s.startedMb} MB ${empty}; ${s.serverMb} MB at the end of the rounds; ${s.restMb} MB after ${REST_SECONDS} s at rest. The word index alone is ${s.raw.indexMb} MB (its arrays, counted in-process), so this design's floor is the empty server and the index: ${s.startedMb + s.raw.indexMb} MB.`;
}

/**
 * The most the cores allow when each request costs both floors: the framework's reply with the
 * load generator (the cores over the HTTP floor's rate) and the search in-process (its mean).
 */
function bothFloors(s: SearchResult, shape: SearchShape) {
  const http = s.medians['floor: same framework, same bytes, no search']!.requestsPerSecond;
  const coreSecondsPerRequest = s.raw.cores / http + s.raw[shape].mean / 1000;
  return Math.round(s.raw.cores / coreSecondsPerRequest);
}

function searchMarkdown(s: SearchResult, database: string) {
  return [
    `## Search, ${s.books} books, ${database} (DESIGN §6: every shape p50 ≤ 5 ms, p99 ≤ 25 ms at one client; ≥ 2,000 req/s at 50 connections)`,
    '',
    `${s.measuredAt ? `Measured ${s.measuredAt}${s.machine ? ` on ${s.machine.cores} × ${s.machine.cpu}` : ''} (load average after the rounds: ${s.loadAverage.join(' / ')}). ` : ''}Medians of ${s.rounds} rounds of ${s.secondsPerRound} s each, measured once the word index held the whole catalogue (${s.indexWaitSeconds} s after the import answered; the database answers searches meanwhile). "Never repeated": a stream of one-to-three-word queries taken from titles, each asked once in the whole run (the server keeps recent results until the catalogue changes, so this is the uncached cost), over the title or over all four fields. "Repeated mix": ${MIX_QUERIES} such queries, asked once beforehand and then over and over, as a household repeats its searches. ${memoryMarkdown(s)} The in-process floor runs 2,000 queries of each stream one at a time: the word index's search, the page's rows and their JSON, as its thread does them, without HTTP or the hop to the thread (its index built in ${s.raw.buildSeconds} s in-process).`,
    '',
    `The in-process floor's req/s is the most this machine's cores allow for the search alone: the cores, each running one search after another at the floor's mean time (${s.raw.cores} cores; mean ${SHAPES.map((shape) => `${shape} ${s.raw[shape].mean} ms`).join(', ')}), with nothing left for HTTP, the hop to the thread or the load generator, which share them. "Together" adds to that mean the cores' time a request of the HTTP floor takes (the cores over its rate, the load generator's share included): the most a server could answer whose requests cost no more than the framework's reply and the search.`,
    '',
    '| what | p50 (ms) | p99 (ms) | req/s | errors |',
    '|---|---:|---:|---:|---:|',
    ...Object.entries(s.medians).map(
      ([what, r]) => `| ${what.startsWith('floor') ? what : `GET /api/books, ${what}`} | ${r.p50} | ${r.p99} | ${r.requestsPerSecond} | ${r.errors} |`,
    ),
    ...SHAPES.map((shape) => {
      const { p50, p99, mean } = s.raw[shape];
      return `| floor: ${shape} in-process, one at a time | ${p50} | ${p99} | at most ${Math.round((s.raw.cores * 1000) / mean)} | — |`;
    }),
    ...SHAPES.map((shape) => `| floor: ${shape}, the search and the framework's reply together | — | — | at most ${bothFloors(s, shape)} | — |`),
  ];
}
