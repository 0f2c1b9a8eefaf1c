import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createSqliteCatalogue, searchPlan } from '../../server/src/books/books.search.sqlite.ts';
import { searchPlanRunner } from '../../server/src/books/search-plan.ts';
import type { BookSearchField } from '../../contract/books.ts';
import { fromCalibreJson } from '../../server/src/books/import/calibre-json.ts';
import { migrate, openStorage } from '../../server/src/storage/database.ts';
import { catalogueQuery } from '../../server/src/books/books.search.ts';
import { type RunningServer, startServer } from '../../web/e2e/server.ts';
import { fixedReplyServer } from '../lib/fixed-reply.ts';
import { load, machine, median, peakMemoryMb, percentile } from '../lib/measure.ts';
import { generateBooks, random, writeCalibreCsv, writeCalibreJson } from './generate-catalogue.ts';

const OUT = path.resolve(import.meta.dirname, '../out');
const RESULTS = path.resolve(import.meta.dirname, '../results');
const SIZES = (process.env.BENCH_BOOKS ?? '100000,1000000').split(',').map(Number);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Books written by the import floor: enough for a steady rate, few enough to hold parsed in memory. */
const FLOOR_BOOKS = 100_000;
/** The repeated mix: this many distinct queries, asked over and over. */
const MIX_QUERIES = 200;

type ImportResult = { kind: 'json' | 'csv'; books: number; fileMb: number; seconds: number; booksPerSecond: number; peakMb: number };

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
 * indexes) of books already parsed and held in memory, in-process: what is left when the upload,
 * the streaming and the parsing cost nothing.
 */
async function writeFloor(count: number): Promise<{ books: number; booksPerSecond: number }> {
  const dataDir = fs.mkdtempSync(path.join(OUT, 'floor-'));
  const storage = await openStorage({ dataDir });
  try {
    await migrate(storage);
    const catalogue = createSqliteCatalogue(storage.db, storage.sqliteFile!);
    const books = [...generateBooks(count)].map((book) =>
      fromCalibreJson({ ...book, identifiers: { isbn: book.isbn }, authors: book.authors.split(' & ') }),
    );
    const started = performance.now();
    await catalogue.load('replace', async (write) => {
      for (const book of books) await write(book);
    });
    await catalogue.close();
    return { books: count, booksPerSecond: Math.round(count / ((performance.now() - started) / 1000)) };
  } finally {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function signUp(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.org', password: 'benchmark password', displayName: 'Bench' }),
  });
  return ((await response.json()) as { idToken: string }).idToken;
}

async function importFile(server: RunningServer, token: string, file: string) {
  const form = new FormData();
  form.append('name', 'replace');
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const started = performance.now();
  const response = await fetch(`${server.baseUrl}/api/books/index`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const reply = (await response.json()) as { total_count: number; error_count: number };
  const seconds = (performance.now() - started) / 1000;
  if (response.status !== 200 || reply.error_count > 0) throw new Error(`import failed: ${JSON.stringify(reply)}`);
  return { seconds, books: reply.total_count };
}

/**
 * A fixed stream of 1–3-word queries as people type them: words of a title they know, sometimes
 * the last one cut short, over the title alone or title and author. Long enough that no run
 * goes through it twice, so a query repeats only as often as people would repeat it.
 */
function queryStream(count = 300_000): string[] {
  const r = random(7);
  const titles = [...generateBooks(Math.max(...SIZES))].filter((_, i) => i % 53 === 0).map((book) => book.title.split(' '));
  return Array.from({ length: count }, () => {
    const title = r.pick(titles);
    const start = r.int(title.length);
    const words = title.slice(start, start + 1 + r.int(3));
    const last = words.length - 1;
    if (r.int(4) === 0 && words[last]!.length > 4) words[last] = words[last]!.slice(0, words[last]!.length - 2);
    const fields = r.int(10) < 7 ? 'title' : 'title,author';
    return `/api/books?keys=${encodeURIComponent(words.join(','))}&fields=${fields}&from=0&size=10`;
  });
}

/** Hands out the stream's queries in order, across rounds, never starting again. */
function reader(paths: string[]) {
  let next = 0;
  return () => {
    if (next === paths.length) throw new Error('the query stream ran out: make it longer');
    return paths[next++]!;
  };
}

/** The floor: the search a worker runs, on the same file, in-process, without HTTP or a worker hop. */
function rawQueryLatencies(file: string, paths: string[]) {
  const connection = new DatabaseSync(file, { readOnly: true });
  const search = searchPlanRunner(connection);
  const times: number[] = [];
  for (const query of paths) {
    const params = new URL(query, 'http://x').searchParams;
    const question = catalogueQuery({
      keys: params.get('keys') ?? '',
      fields: (params.get('fields') ?? 'title').split(',') as BookSearchField[],
      format: '',
      from: 0,
      size: 10,
    });
    const started = performance.now();
    search(searchPlan(question));
    times.push(performance.now() - started);
  }
  connection.close();
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

export async function benchBooks() {
  const imports: ImportResult[] = [];
  let search: Record<string, unknown> | undefined;
  for (const count of SIZES) {
    for (const kind of ['json', 'csv'] as const) {
      const file = await catalogueFile(kind, count);
      const fileMb = Math.round(fs.statSync(file).size / 2 ** 20);
      const server = await startServer({ MAX_UPLOAD_MB: '100000', LOG_LEVEL: 'warn' }, { needsWebClient: false });
      try {
        const token = await signUp(server);
        const { seconds, books } = await importFile(server, token, file);
        const result = { kind, books, fileMb, seconds: +seconds.toFixed(2), booksPerSecond: Math.round(books / seconds), peakMb: peakMemoryMb(server.pid) };
        imports.push(result);
        console.log(`  import ${kind} ${books} books (${fileMb} MB): ${result.booksPerSecond} books/s, peak ${result.peakMb} MB`);
        if (kind === 'json' && count === Math.max(...SIZES)) search = await benchSearch(server, token);
      } finally {
        await server.stop();
      }
    }
  }
  const floors: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const floor = await writeFloor(FLOOR_BOOKS);
    floors.push(floor.booksPerSecond);
    console.log(`  import floor round ${round + 1}: ${floor.books} parsed books written in-process at ${floor.booksPerSecond} books/s`);
  }
  const importFloor = { books: FLOOR_BOOKS, rounds: ROUNDS, booksPerSecond: median(floors) };
  const report = { machine: machine(), imports, importFloor, search };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'books.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS, 'books.md'), markdown(report));
  console.log(markdown(report));
}

async function benchSearch(server: RunningServer, token: string) {
  const paths = queryStream();
  // The stream is read from its start; the mix comes from its end, which no round reaches.
  const mix = paths.slice(-MIX_QUERIES);
  const nextQuery = reader(paths.slice(0, -MIX_QUERIES));
  const headers = { authorization: `Bearer ${token}` };
  const sample = await fetch(`${server.baseUrl}${paths[0]}`, { headers });
  const sampleBody = await sample.text();
  const floor = await fixedReplyServer([{ method: 'GET', url: '/api/books', body: sampleBody }]);
  // The mix is asked once before it is measured, as a household has asked its searches before.
  for (const query of mix) await (await fetch(`${server.baseUrl}${query}`, { headers })).arrayBuffer();
  type Load = Awaited<ReturnType<typeof load>>;
  const rounds: Array<{ app: Load; mix: Load; http: Load; raw: ReturnType<typeof rawQueryLatencies> }> = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const app = await load(server.baseUrl, nextQuery, { seconds: LOAD_SECONDS, headers });
      let mixNext = 0;
      const repeated = await load(server.baseUrl, () => mix[mixNext++ % mix.length]!, { seconds: LOAD_SECONDS, headers });
      // The floor answers every path alike, so it may go round the stream as often as it likes.
      let floorNext = 0;
      const http = await load(floor.baseUrl, () => paths[floorNext++ % paths.length]!, { seconds: LOAD_SECONDS });
      const raw = rawQueryLatencies(path.join(server.dataDir, 'organiser.sqlite'), paths.slice(round * 2000, (round + 1) * 2000));
      rounds.push({ app, mix: repeated, http, raw });
      console.log(`  search round ${round + 1}: app p50 ${app.p50} ms p99 ${app.p99} ms ${app.requestsPerSecond} req/s (errors ${app.errors}); repeated mix p50 ${repeated.p50} ms p99 ${repeated.p99} ms ${repeated.requestsPerSecond} req/s (errors ${repeated.errors}); http floor p50 ${http.p50} ms ${http.requestsPerSecond} req/s; raw query p50 ${raw.p50.toFixed(2)} ms p99 ${raw.p99.toFixed(2)} ms`);
    }
  } finally {
    floor.stop();
  }
  return {
    books: Math.max(...SIZES),
    connections: 50,
    secondsPerRound: LOAD_SECONDS,
    rounds: rounds.length,
    app: {
      p50: median(rounds.map((r) => r.app.p50)),
      p99: median(rounds.map((r) => r.app.p99)),
      requestsPerSecond: median(rounds.map((r) => r.app.requestsPerSecond)),
      errors: rounds.reduce((sum, r) => sum + r.app.errors, 0),
    },
    mix: {
      queries: MIX_QUERIES,
      p50: median(rounds.map((r) => r.mix.p50)),
      p99: median(rounds.map((r) => r.mix.p99)),
      requestsPerSecond: median(rounds.map((r) => r.mix.requestsPerSecond)),
      errors: rounds.reduce((sum, r) => sum + r.mix.errors, 0),
    },
    httpFloor: {
      p50: median(rounds.map((r) => r.http.p50)),
      p99: median(rounds.map((r) => r.http.p99)),
      requestsPerSecond: median(rounds.map((r) => r.http.requestsPerSecond)),
    },
    rawQueryFloor: {
      p50: +median(rounds.map((r) => r.raw.p50)).toFixed(3),
      p99: +median(rounds.map((r) => r.raw.p99)).toFixed(3),
    },
  };
}

type Report = {
  machine: ReturnType<typeof machine>;
  imports: ImportResult[];
  importFloor: { books: number; rounds: number; booksPerSecond: number };
  search?: Record<string, unknown>;
};

function markdown(report: Report) {
  const m = report.machine;
  const lines = [
    '# Books benchmark',
    '',
    `Machine: ${m.cores} × ${m.cpu}, ${m.memoryGb} GiB, ${m.platform}, Node ${m.node}; ${m.date}. Load generator (autocannon) and server share the machine.`,
    '',
    '## Import (DESIGN §6: ≥ 50,000 books/s, ≤ 300 MB for 1,000,000 books)',
    '',
    '| file | books | size (MB) | seconds | books/s | server peak RSS (MB) |',
    '|---|---:|---:|---:|---:|---:|',
    ...report.imports.map((r) => `| Calibre ${r.kind.toUpperCase()} | ${r.books} | ${r.fileMb} | ${r.seconds} | ${r.booksPerSecond} | ${r.peakMb} |`),
    `| floor: the same load of ${report.importFloor.books} books already parsed, in-process (median of ${report.importFloor.rounds}) | ${report.importFloor.books} | — | — | ${report.importFloor.booksPerSecond} | — |`,
  ];
  const s = report.search as
    | {
        books: number;
        rounds: number;
        secondsPerRound: number;
        app: Record<string, number>;
        mix: Record<string, number>;
        httpFloor: Record<string, number>;
        rawQueryFloor: Record<string, number>;
      }
    | undefined;
  if (s) {
    lines.push(
      '',
      `## Search, ${s.books} books, SQLite, 50 connections (DESIGN §6: p50 ≤ 5 ms, p99 ≤ 25 ms, ≥ 2,000 req/s)`,
      '',
      `Medians of ${s.rounds} rounds of ${s.secondsPerRound} s each. "Never repeated": one stream of one-to-three-word queries taken from titles, each asked once (the server keeps recent results until the catalogue changes, so this is the uncached cost). "Repeated mix": a fixed mix of ${s.mix.queries} such queries, asked once beforehand and then over and over, as a household repeats its searches. The in-process floor runs 2,000 queries of the stream, uncached, one at a time: the same SQL a worker runs, compiled and run in-process without HTTP or the hop to a worker.`,
      '',
      '| what | p50 (ms) | p99 (ms) | req/s |',
      '|---|---:|---:|---:|',
      `| GET /api/books, never repeated | ${s.app.p50} | ${s.app.p99} | ${s.app.requestsPerSecond} |`,
      `| GET /api/books, repeated mix | ${s.mix.p50} | ${s.mix.p99} | ${s.mix.requestsPerSecond} |`,
      `| floor: same framework, same bytes, no search | ${s.httpFloor.p50} | ${s.httpFloor.p99} | ${s.httpFloor.requestsPerSecond} |`,
      `| floor: the same searches in-process, one at a time | ${s.rawQueryFloor.p50} | ${s.rawQueryFloor.p99} | — |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
