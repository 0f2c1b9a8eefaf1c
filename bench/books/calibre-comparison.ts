import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../web/e2e/server.ts';
import { closedLoop, type ClosedLoopResult } from '../lib/closed-loop.ts';
import { machine, median, peakMemoryMb } from '../lib/measure.ts';
import { calibreLibrary, calibreVersion } from './calibre-library.ts';
import { startCalibreServer } from './calibre-server.ts';
import { importFile, searchIndexBuilt, signIn, signUp } from './organiser-api.ts';
import { calibreSearch, organiserSearch, reader, type SearchShape, typedQueries } from './query-stream.ts';

const SHAPES: SearchShape[] = ['titles', 'all fields'];
const CLIENTS = [1, 10];
/** The first page, as the book search shows it. */
const PAGE = 20;
/** Queries of another stream asked of both before the rounds: their totals are compared, and both servers are warm. */
const AGREEMENT_QUERIES = 20;

type Side = { p50: number; p99: number; requestsPerSecond: number; requests: number; errors: number };
export type CalibreComparisonRow = { books: number; shape: SearchShape; clients: number; organiser: Side; calibre: Side };
export type CalibreLibraryFacts = {
  books: number;
  buildSeconds: number;
  metadataDbMb: number;
  organiserLoadSeconds: number;
  /** Seconds from the load's reply to the word index holding the library (absent in runs made before it). */
  organiserIndexSeconds?: number;
  calibreStartSeconds: number;
  organiserPeakMb: number;
  calibrePeakMb: number;
  sameTotals: Record<SearchShape, string>;
  loadAverageBefore: number[];
};
export type CalibreComparison = {
  machine: ReturnType<typeof machine>;
  calibre: string;
  secondsPerRound: number;
  rounds: number;
  page: number;
  libraries: CalibreLibraryFacts[];
  rows: CalibreComparisonRow[];
};

const mid = (results: ClosedLoopResult[]): Side => ({
  p50: median(results.map((r) => r.p50)),
  p99: median(results.map((r) => r.p99)),
  requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
  requests: results.reduce((sum, r) => sum + r.requests, 0),
  errors: results.reduce((sum, r) => sum + r.errors, 0),
});

async function total(url: string, headers: Record<string, string>, key: 'total' | 'total_num'): Promise<number> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as Record<typeof key, number>)[key];
}

/**
 * Organiser and Debian's calibre-server on the same library, built by calibre: the same
 * never-repeated stream of typed queries sent to each, in interleaved rounds (Organiser, calibre,
 * Organiser, …), for each shape of search and number of clients; medians of the rounds.
 */
export async function compareWithCalibre(sizes: number[], { seconds, rounds }: { seconds: number; rounds: number }): Promise<CalibreComparison> {
  const libraries: CalibreLibraryFacts[] = [];
  const rows: CalibreComparisonRow[] = [];
  for (const count of sizes) {
    const library = await calibreLibrary(count);
    const metadataDb = path.join(library.dir, 'metadata.db');
    const loadAverageBefore = os.loadavg().map((load) => +load.toFixed(2));
    const organiser = await startServer({ MAX_UPLOAD_MB: '100000', LOG_LEVEL: 'warn' }, { needsWebClient: false });
    let calibre: Awaited<ReturnType<typeof startCalibreServer>> | undefined;
    try {
      const loaded = await importFile(organiser, await signUp(organiser), metadataDb);
      if (loaded.books !== count) throw new Error(`Organiser loaded ${loaded.books} of the library's ${count} books`);
      // Organiser is measured as it answers once started: from the word index it builds after a load.
      const indexSeconds = await searchIndexBuilt(organiser, count);
      const headers = { authorization: `Bearer ${await signIn(organiser)}` };
      calibre = await startCalibreServer(library.dir);
      console.log(`  ${count} books: Organiser loaded metadata.db in ${loaded.seconds.toFixed(1)} s, its word index ${indexSeconds.toFixed(1)} s later; calibre-server answered after ${calibre.startSeconds} s`);
      const sameTotals = {} as Record<SearchShape, string>;
      for (const shape of SHAPES) {
        let same = 0;
        for (const words of typedQueries(count, AGREEMENT_QUERIES, 11)) {
          const ours = await total(`${organiser.baseUrl}${organiserSearch(words, shape, PAGE)}`, headers, 'total');
          const theirs = await total(`${calibre.baseUrl}${calibreSearch(words, shape, PAGE)}`, {}, 'total_num');
          if (ours === theirs) same++;
        }
        sameTotals[shape] = `${same} of ${AGREEMENT_QUERIES}`;
      }
      // Enough for both loads of a shape at the rate a quiet machine reached at 20,000 books (4,171
      // req/s at one client, more at ten), each query asked once.
      const stream = typedQueries(count, Math.max(50_000, 30_000 * seconds * rounds));
      for (const shape of SHAPES) {
        const organiserNext = reader(stream.map((words) => organiserSearch(words, shape, PAGE)));
        const calibreNext = reader(stream.map((words) => calibreSearch(words, shape, PAGE)));
        for (const clients of CLIENTS) {
          const ours: ClosedLoopResult[] = [];
          const theirs: ClosedLoopResult[] = [];
          for (let round = 0; round < rounds; round++) {
            ours.push(await closedLoop(organiser.baseUrl, organiserNext, { clients, seconds, headers }));
            theirs.push(await closedLoop(calibre.baseUrl, calibreNext, { clients, seconds }));
            const [o, c] = [ours.at(-1)!, theirs.at(-1)!];
            if (o.errors > 0) throw new Error(`Organiser answered ${o.errors} of its searches with an error`);
            console.log(`  ${count} ${shape}, ${clients} client(s), round ${round + 1}: Organiser p50 ${o.p50} p99 ${o.p99} ms ${o.requestsPerSecond} req/s; calibre p50 ${c.p50} p99 ${c.p99} ms ${c.requestsPerSecond} req/s`);
          }
          rows.push({ books: count, shape, clients, organiser: mid(ours), calibre: mid(theirs) });
        }
      }
      libraries.push({
        books: count,
        buildSeconds: library.buildSeconds,
        metadataDbMb: Math.round(fs.statSync(metadataDb).size / 2 ** 20),
        organiserLoadSeconds: +loaded.seconds.toFixed(1),
        organiserIndexSeconds: +indexSeconds.toFixed(1),
        calibreStartSeconds: calibre.startSeconds,
        organiserPeakMb: peakMemoryMb(organiser.pid),
        calibrePeakMb: peakMemoryMb(calibre.pid),
        sameTotals,
        loadAverageBefore,
      });
    } finally {
      await calibre?.stop();
      await organiser.stop();
    }
  }
  return { machine: machine(), calibre: calibreVersion(), secondsPerRound: seconds, rounds, page: PAGE, libraries, rows };
}

const ratio = (a: number, b: number) => (b > 0 ? +(a / b).toPrecision(2) : NaN);

export function calibreMarkdown(c: CalibreComparison): string[] {
  const m = c.machine;
  return [
    '## Search beside calibre-server',
    '',
    `Machine: ${m.cores} × ${m.cpu}, ${m.memoryGb} GiB, ${m.platform}, Node ${m.node}, Debian's calibre ${c.calibre}; ${m.date}. Load average before each library (1, 5, 15 min): ${c.libraries.map((l) => `${l.books} books: ${l.loadAverageBefore.join(' / ')}`).join('; ')}. Clients, Organiser and calibre-server share the machine.`,
    '',
    `Each library is made by Debian's calibre through its own database API (calibre-debug running bench/books/calibre-make-library.py: one transaction, one \`create_book_entry\` and \`add_format\` per book, the other fields set for all books at once), from the generator the import uses; Organiser loads its metadata.db through \`POST /api/books/index\`. The same never-repeated stream of 1–3 typed title words goes to both, ${c.rounds} interleaved rounds of ${c.secondsPerRound} s (Organiser, calibre, Organiser, …), closed loop (each client sends its next query when its last is answered; answers under way at the end are waited for); medians of the rounds. Both answer the exact total and a first page of ${c.page}: Organiser \`GET /api/books?keys=w1,w2&fields=title\` (all fields: \`title,author,comment,file_path\`) with the books; calibre \`GET /ajax/search?query=title:"w1" and title:"w2"&num=${c.page}\` (all fields: \`"w1" and "w2"\`) with the ids, in title order.`,
    '',
    "The answers differ in meaning: calibre matches a word anywhere inside a field's text (\"riv\" finds \"arrive\"), Organiser matches whole words and the last one as a prefix (docs/behaviour/books.md); calibre's bare words also search tags, series, publisher, formats, identifiers and languages. Of the warm-up queries the totals agree as shown.",
    '',
    '| books | library built (s) | metadata.db (MB) | Organiser load (s) | Organiser word index, after the load (s) | calibre-server ready (s) | Organiser peak RSS (MB) | calibre peak RSS (MB) | same totals, titles | same totals, all fields |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...c.libraries.map(
      (l) => `| ${l.books} | ${l.buildSeconds} | ${l.metadataDbMb} | ${l.organiserLoadSeconds} | ${l.organiserIndexSeconds ?? '—'} | ${l.calibreStartSeconds} | ${l.organiserPeakMb} | ${l.calibrePeakMb} | ${l.sameTotals.titles} | ${l.sameTotals['all fields']} |`,
    ),
    '',
    '| books | search | clients | Organiser p50 / p99 (ms) | Organiser req/s | calibre p50 / p99 (ms) | calibre req/s | req/s Organiser ÷ calibre | p50 Organiser ÷ calibre |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
    ...c.rows.map(
      (r) =>
        `| ${r.books} | ${r.shape} | ${r.clients} | ${r.organiser.p50} / ${r.organiser.p99} | ${r.organiser.requestsPerSecond} | ${r.calibre.p50} / ${r.calibre.p99} | ${r.calibre.requestsPerSecond} | ${ratio(r.organiser.requestsPerSecond, r.calibre.requestsPerSecond)} | ${ratio(r.organiser.p50, r.calibre.p50)} |`,
    ),
  ];
}
