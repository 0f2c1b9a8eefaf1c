import type { machine } from '../lib/measure.ts';
import { type CalibreComparison, calibreMarkdown } from './calibre-comparison.ts';
import type { SearchShape, streamMix } from './query-stream.ts';
import type { inProcessSearch } from './search-floor.ts';

export type Database = 'sqlite' | 'postgres';
export const SHAPES: SearchShape[] = ['titles', 'all fields'];
export type Loads = Array<{ part: string; seconds: number; before: number[]; after: number[] }>;
type Median = { p50: number; p99: number; requestsPerSecond: number };

export type DatabaseRun = {
  /** The server's command line as it ran, from /proc. */
  serverCommand: string;
  import: {
    emptyMb: number;
    books: number;
    /** From the upload's start to the books written (the index of them then built). */
    writtenSeconds: number;
    /** To the reply, which waits for that index. */
    seconds: number;
    indexSeconds: number;
    peakMb: number;
    booksPerSecond: number;
    floorBooksPerSecond: number;
  };
  medians: Record<string, Median>;
  underLoadMb: number;
  inProcess: Awaited<ReturnType<typeof inProcessSearch>>;
  restMb: number;
  restart: { fromFileSeconds: number; buildSeconds: number };
};

export type Report = {
  machine: ReturnType<typeof machine>;
  books: number;
  fileMb: number;
  secondsPerRound: number;
  rounds: number;
  restSeconds: number;
  floors: number[];
  stream: ReturnType<typeof streamMix>;
  databases: Partial<Record<Database, DatabaseRun>>;
  small: { books: number; searches: number; restMb: number };
  loads: Loads;
  calibre?: CalibreComparison;
};

/** The budgets of docs/budgets.md that `npm run bench -- books` measures, at 1,000,000 books. */
const BUDGET = {
  importRatio: { sqlite: 0.7, postgres: 0.35 },
  importPeakMb: 450,
  p50Ms: 5,
  p99Ms: 25,
  requestsPerSecond: 2000,
  fromFileSeconds: 10,
  buildSeconds: 60,
  underLoadMb: 450,
  restMb: 300,
  smallRestMb: 150,
  books: 1_000_000,
};

const NAMES: Record<Database, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** A figure against its budget: met, or by how much it misses (`atMost`: the budget is a ceiling). */
function verdict(value: number, budget: number, atMost: boolean, unit: string): string {
  const miss = atMost ? value - budget : budget - value;
  if (miss <= 0) return 'met';
  const by = Number.isInteger(budget) ? Math.round(miss) : +miss.toFixed(2);
  return `**missed by ${by}${unit}** (${Math.round((100 * miss) / budget)} %)`;
}

/** The rate is owed only where the same run's HTTP floor reaches it. */
function rateVerdict(requestsPerSecond: number, httpFloor: number): string {
  const said = verdict(requestsPerSecond, BUDGET.requestsPerSecond, false, ' req/s');
  return said !== 'met' && httpFloor < BUDGET.requestsPerSecond ? `${said}; the HTTP floor itself is below it` : said;
}

function budgetRows(database: Database, run: DatabaseRun, restSeconds: number): string[] {
  const name = NAMES[database];
  const memoryFloor = `the empty server (${run.import.emptyMb} MB) and the index (${run.inProcess.indexMb} MB): ${run.import.emptyMb + run.inProcess.indexMb} MB`;
  const ratio = run.import.booksPerSecond / run.import.floorBooksPerSecond;
  const replied = run.import.books / run.import.seconds / run.import.floorBooksPerSecond;
  const http = run.medians['HTTP floor, 50 connections']!.requestsPerSecond;
  const row = (what: string, measured: string, budget: string, floor: string, met: string) => `| ${name} | ${what} | ${measured} | ${budget} | ${floor} | ${met} |`;
  return [
    row('import, Calibre JSON: over the floor, to the books written', `${ratio.toFixed(2)}× (${run.import.booksPerSecond} books/s; to the reply, which waits for their index, ${replied.toFixed(2)}×)`, `≥ ${BUDGET.importRatio[database]}×`, `plain script, books table alone, one SQLite transaction: ${Math.round(run.import.floorBooksPerSecond)} books/s`, verdict(ratio, BUDGET.importRatio[database], false, '×')),
    row('import: peak server RSS through the load and the index build', `${run.import.peakMb} MB`, `≤ ${BUDGET.importPeakMb} MB`, memoryFloor, verdict(run.import.peakMb, BUDGET.importPeakMb, true, ' MB')),
    ...SHAPES.flatMap((shape) => {
      const one = run.medians[`${shape}, 1 client`]!;
      const many = run.medians[`${shape}, 50 connections`]!;
      const raw = run.inProcess.latencies[shape];
      return [
        row(`search, ${shape}: p50 at 1 client`, `${one.p50} ms`, `≤ ${BUDGET.p50Ms} ms`, `in-process: ${raw.p50} ms`, verdict(one.p50, BUDGET.p50Ms, true, ' ms')),
        row(`search, ${shape}: p99 at 1 client`, `${one.p99} ms`, `≤ ${BUDGET.p99Ms} ms`, `in-process: ${raw.p99} ms`, verdict(one.p99, BUDGET.p99Ms, true, ' ms')),
        row(`search, ${shape}: req/s at 50 connections`, `${many.requestsPerSecond}`, `≥ ${BUDGET.requestsPerSecond} where the HTTP floor allows`, `HTTP floor ${http}; the search alone, in-process, at most ${Math.round((run.inProcess.cores * 1000) / raw.mean)}`, rateVerdict(many.requestsPerSecond, http)),
      ];
    }),
    row('restart: first search answered from the index file', `${run.restart.fromFileSeconds} s`, `≤ ${BUDGET.fromFileSeconds} s`, '—', verdict(run.restart.fromFileSeconds, BUDGET.fromFileSeconds, true, ' s')),
    row('restart without the index file: built from the database, ready', `${run.restart.buildSeconds} s`, `≤ ${BUDGET.buildSeconds} s`, `the same build in-process: ${run.inProcess.buildSeconds} s`, verdict(run.restart.buildSeconds, BUDGET.buildSeconds, true, ' s')),
    row('memory: highest RSS under the search rounds', `${run.underLoadMb} MB`, `≤ ${BUDGET.underLoadMb} MB`, memoryFloor, verdict(run.underLoadMb, BUDGET.underLoadMb, true, ' MB')),
    row(`memory: RSS ${restSeconds} s after the rounds`, `${run.restMb} MB`, `≤ ${BUDGET.restMb} MB`, memoryFloor, verdict(run.restMb, BUDGET.restMb, true, ' MB')),
  ];
}

function searchTable(database: Database, run: DatabaseRun): string[] {
  return [
    `### Search rounds, ${NAMES[database]} (medians of the rounds)`,
    '',
    '| what | p50 (ms) | p99 (ms) | req/s |',
    '|---|---:|---:|---:|',
    ...Object.entries(run.medians).map(([what, r]) => `| ${what.startsWith('HTTP') ? what : `GET /api/books, ${what}`} | ${r.p50} | ${r.p99} | ${r.requestsPerSecond} |`),
    ...SHAPES.map((shape) => {
      const { p50, p99, mean } = run.inProcess.latencies[shape];
      return `| in-process floor, ${shape}, one at a time (mean ${mean} ms) | ${p50} | ${p99} | at most ${Math.round((run.inProcess.cores * 1000) / mean)} on ${run.inProcess.cores} cores |`;
    }),
    '',
    `Import: ${run.import.books} books written ${run.import.writtenSeconds} s after the upload began, the reply at ${run.import.seconds} s (it waits for the word index of the new catalogue), the index ready ${run.import.indexSeconds} s after the reply; the empty server's RSS ${run.import.emptyMb} MB after its start; the index ${run.inProcess.indexMb} MB (its arrays).`,
  ];
}

function catalogueMarkdown(r: Report): string[] {
  const m = r.machine;
  const trial = r.books === BUDGET.books ? [] : [`**A trial at ${r.books} books**: the budgets are for ${BUDGET.books} books, so the verdicts below only show what the run measures.`, ''];
  const runs = Object.entries(r.databases) as Array<[Database, DatabaseRun]>;
  return [
    '',
    `Machine: ${m.cores} × ${m.cpu}, ${m.memoryGb} GiB, ${m.platform}, Node ${m.node}; ${m.date}. The server ran as \`npm start\` runs it: ${[...new Set(Object.values(r.databases).map((run) => `\`${run.serverCommand}\``))].join(', ')}. The load generator (autocannon), the server and PostgreSQL share the machine.`,
    '',
    ...trial,
    `One run on this code: a Calibre JSON file of ${r.books} books (${r.fileMb} MB) imported through \`POST /api/books/index\` into each database, searched in ${r.rounds} rounds of ${r.secondsPerRound} s (medians), left alone ${r.restSeconds} s, stopped and started again from its index file, then without it. The import's floor is a plain script (\`import-floor.ts\`) that parses the same file and inserts the same rows into the books table alone, made from the DDL of an empty migrated database, in one SQLite transaction; it runs before the first import and after each (${r.floors.join(', ')} books/s), and each import is compared with the mean of the two beside it. The search's floors: an HTTP endpoint of the same framework returning the same bytes, and the index's search with the page's rows and JSON in-process.`,
    '',
    `The never-repeated query stream (each query asked once in the run, per database), as people type words of a title they know: ${Object.entries(r.stream).map(([kind, share]) => `${share} % ${kind}`).join(', ')}. Titles search the title; all fields search title, author, comment and file path.`,
    '',
    '## Budgets (docs/budgets.md)',
    '',
    '| database | what | measured | budget | floor beside it, same run | |',
    '|---|---|---:|---|---|---|',
    ...runs.flatMap(([database, run]) => budgetRows(database, run, r.restSeconds)),
    `| SQLite | memory at ${r.small.books} books, at rest (${r.restSeconds} s after ${r.small.searches} searches) | ${r.small.restMb} MB | ≤ ${BUDGET.smallRestMb} MB | ${r.databases.sqlite ? `the empty server: ${r.databases.sqlite.import.emptyMb} MB` : '—'} | ${verdict(r.small.restMb, BUDGET.smallRestMb, true, ' MB')} |`,
    '',
    ...runs.flatMap(([database, run]) => [...searchTable(database, run), '']),
    '## Load average (1, 5, 15 min) before and after each part',
    '',
    '| part | seconds | before | after |',
    '|---|---:|---|---|',
    ...r.loads.map((l) => `| ${l.part} | ${l.seconds} | ${l.before.join(' / ')} | ${l.after.join(' / ')} |`),
  ];
}

export function markdown(report: Partial<Report>) {
  const lines = ['# Books benchmark'];
  if (report.databases) lines.push(...catalogueMarkdown(report as Report));
  if (report.calibre) {
    lines.push('', ...calibreMarkdown(report.calibre));
    if (report.machine && report.calibre.machine.date < report.machine.date) {
      lines.push('', `This comparison was not run again with the run above: its figures are those of ${report.calibre.machine.date}, on the catalogue generator of then (before it wrote Chinese and Japanese titles).`);
    }
  }
  return `${lines.join('\n')}\n`;
}
