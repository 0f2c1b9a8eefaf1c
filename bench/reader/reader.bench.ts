import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../web/e2e/browser.ts';
import { machine, median } from '../lib/measure.ts';
import { freshPostgresDatabase } from '../mixed/postgres-database.ts';
import { EPUB_BYTES, makeEpub, makeFlatTreePdf, makePdf, PDF_BYTES } from './generate-books.ts';
import { KOSYNC_CALLS, type KosyncCall, kosyncHeaders, kosyncRound, type Latency } from './kosync-put.ts';
import { fetchFileFloor, type OpenRun, openCold, type ReaderFormat } from './reader-open.ts';
import { libraryWith, startReaderServer } from './reader-setup.ts';

const RESULTS = path.resolve(import.meta.dirname, '../results');
/** Cold openings of each book; the budget is read on their median. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Requests of each kind per round of the KOReader sync. */
const KOSYNC_REQUESTS = Number(process.env.BENCH_KOSYNC_REQUESTS ?? 300);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
/** What is opened: the book's EPUB, its PDF as most writers write one, and as a writer with a flat page tree does (generate-books.ts). */
const CASES = ['epub', 'pdf', 'pdf-flat'] as const;
type ReaderCase = (typeof CASES)[number];
const FORMAT: Record<ReaderCase, ReaderFormat> = { epub: 'epub', pdf: 'pdf', 'pdf-flat': 'pdf' };
/** The issue's budgets, ms. */
const BUDGET = { epub: 1500, pdf: 2000, 'pdf-flat': 2000, kosyncPut: 20 } as const;

type CaseResult = { fileBytes: number; pages: number | null; runs: OpenRun[]; fileFloorMs: number[] };
type KosyncResult = { database: 'sqlite' | 'postgres'; settings?: Record<string, string>; rounds: Array<Record<KosyncCall, Latency>> };

async function kosyncRounds(baseUrl: string, token: string, epub: string): Promise<Array<Record<KosyncCall, Latency>>> {
  const headers = await kosyncHeaders(baseUrl, token);
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    rounds.push(await kosyncRound(baseUrl, headers, epub, KOSYNC_REQUESTS));
    console.log(`  KOReader PUT p50 ${rounds.at(-1)!.put.p50} ms (auth alone ${rounds.at(-1)!.auth.p50}, health ${rounds.at(-1)!.health.p50})`);
  }
  return rounds;
}

/** Each case opened cold ROUNDS times, the cases in turn; the PDF cases take their turn as the book's PDF file. */
async function openRounds(browser: Browser, baseUrl: string, token: string, made: Record<ReaderCase, { file: string; pages: number | null }>, bookPdf: string) {
  const caseOf = (name: ReaderCase): CaseResult => ({ fileBytes: fs.statSync(made[name].file).size, pages: made[name].pages, runs: [], fileFloorMs: [] });
  const cases: Record<ReaderCase, CaseResult> = { epub: caseOf('epub'), pdf: caseOf('pdf'), 'pdf-flat': caseOf('pdf-flat') };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const name of CASES) {
      if (FORMAT[name] === 'pdf') fs.copyFileSync(made[name].file, bookPdf);
      const run = await openCold(browser, baseUrl, FORMAT[name]);
      cases[name].runs.push(run);
      cases[name].fileFloorMs.push(await fetchFileFloor(baseUrl, token, FORMAT[name]));
      console.log(`  ${name}: first page ${run.firstPageMs} ms (app page ${run.appPageMs} ms), file ${run.fileBytes} bytes in ${run.fileRequests} requests`);
    }
  }
  return cases;
}

export async function benchReader() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-bench-reader-'));
  let browser: Browser | undefined = await launchBrowser();
  try {
    const started = performance.now();
    const made: Record<ReaderCase, { file: string; pages: number | null }> = {
      epub: { file: path.join(work, 'generated.epub'), pages: null },
      pdf: { file: path.join(work, 'generated.pdf'), pages: null },
      'pdf-flat': { file: path.join(work, 'generated-flat.pdf'), pages: null },
    };
    await makeEpub(work, made.epub.file);
    made.pdf.pages = (await makePdf(browser, work, made.pdf.file)).pages;
    made['pdf-flat'].pages = (await makeFlatTreePdf(made['pdf-flat'].file)).pages;
    for (const name of CASES) {
      if (fs.statSync(made[name].file).size < (FORMAT[name] === 'epub' ? EPUB_BYTES : PDF_BYTES)) throw new Error(`the ${name} made is smaller than the budget's book`);
    }
    console.log(`  books made in ${((performance.now() - started) / 1000).toFixed(1)} s: ${CASES.map((name) => `${name} ${fs.statSync(made[name].file).size} bytes`).join(', ')}`);
    const files = libraryWith(work, made.epub.file, made.pdf.file);

    let cases: Record<ReaderCase, CaseResult> | undefined;
    const kosync: KosyncResult[] = [];
    for (const database of DATABASES) {
      const postgres = database === 'postgres' ? await freshPostgresDatabase(POSTGRES_URL, 'organiser_bench_reader') : undefined;
      // The browser's figures are taken once, on SQLite: a book's file and its first page involve no database.
      const withBrowser = cases === undefined;
      const { server, token } = await startReaderServer(files.library, postgres ? { DATABASE_URL: postgres.url } : {}, withBrowser);
      try {
        if (withBrowser && browser) {
          cases = await openRounds(browser, server.baseUrl, token, made, files.pdf);
          await browser.close();
          browser = undefined;
        }
        console.log(`  KOReader sync on ${database}`);
        kosync.push({ database, settings: postgres?.settings, rounds: await kosyncRounds(server.baseUrl, token, files.epub) });
      } finally {
        await server.stop();
        await postgres?.drop();
      }
    }
    const report = { machine: machine(), rounds: ROUNDS, kosyncRequests: KOSYNC_REQUESTS, cases: cases!, kosync };
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'reader.json'), `${JSON.stringify(report, null, 2)}\n`);
    fs.writeFileSync(path.join(RESULTS, 'reader.md'), markdown(report));
    console.log(markdown(report));
  } finally {
    await browser?.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

type Report = {
  machine: ReturnType<typeof machine>;
  rounds: number;
  kosyncRequests: number;
  cases: Record<ReaderCase, CaseResult>;
  kosync: KosyncResult[];
};

const mb = (bytes: number) => (bytes / 1_000_000).toFixed(2);
const kb = (bytes: number) => Math.round(bytes / 1000).toLocaleString('en');
const met = (value: number, budget: number) => (value <= budget ? 'met' : '**missed**');

const CASE_TITLE: Record<ReaderCase, (result: CaseResult) => string> = {
  epub: (result) => `EPUB of ${mb(result.fileBytes)} MB (budget: first page ≤ ${BUDGET.epub} ms after "Read", cold)`,
  pdf: (result) => `PDF of ${mb(result.fileBytes)} MB, ${result.pages} pages, by Chromium's writer (budget: first page ≤ ${BUDGET.pdf} ms after "Read PDF", cold, by ranges)`,
  'pdf-flat': (result) => `The same PDF by PDFKit, ${mb(result.fileBytes)} MB, ${result.pages} pages, one flat page tree (the same budget)`,
};

function caseSection(name: ReaderCase, result: CaseResult): string {
  const { runs } = result;
  const firstPage = median(runs.map((run) => run.firstPageMs));
  const appPage = median(runs.map((run) => run.appPageMs));
  return `## ${CASE_TITLE[name](result)}

| round | first page (ms) | floor: the book's page, cold (ms) | file bytes fetched by the first page (bodies and headers) | requests for the file | file bytes 2 s later | all bytes of the load | floor: ${FORMAT[name] === 'pdf' ? 'first 64 KB range' : 'whole file'} fetched by Node (ms) |
|---|---:|---:|---:|---:|---:|---:|---:|
${runs.map((run, i) => `| ${i + 1} | ${run.firstPageMs} | ${run.appPageMs} | ${kb(run.fileBytes)} KB | ${run.fileRequests} | ${kb(run.fileBytesSettled)} KB | ${kb(run.allBytes)} KB | ${result.fileFloorMs[i]} |`).join('\n')}
| **median** | **${firstPage}** (${(firstPage / appPage).toFixed(1)}× the app's page) | ${appPage} | ${kb(median(runs.map((run) => run.fileBytes)))} KB of ${kb(result.fileBytes)} | ${median(runs.map((run) => run.fileRequests))} | | ${kb(median(runs.map((run) => run.allBytes)))} KB | ${median(result.fileFloorMs)} |

Budget ${BUDGET[name]} ms: ${met(firstPage, BUDGET[name])} (median ${firstPage} ms).
`;
}

function kosyncSection(kosync: KosyncResult[], requests: number): string {
  const label: Record<KosyncCall, string> = {
    put: '`PUT /kosync/syncs/progress` (the library EPUB\'s id: its progress and the book\'s position written)',
    auth: 'floor: `GET /kosync/users/auth` (the same credential check, nothing written)',
    healthcheck: 'floor: `GET /kosync/healthcheck` (the same routes, no credential)',
    health: 'floor: `GET /api/health`',
  };
  const rows = kosync.flatMap(({ database, rounds }) =>
    KOSYNC_CALLS.map((call) => {
      const p50 = median(rounds.map((round) => round[call].p50));
      const p99 = median(rounds.map((round) => round[call].p99));
      const errors = rounds.reduce((sum, round) => sum + round[call].errors, 0);
      return `| ${database} | ${label[call]} | ${call === 'put' ? `**${p50}**` : p50} | ${p99} | ${rounds.map((round) => round[call].p50).join(', ')} | ${errors} |`;
    }),
  );
  const verdicts = kosync.map(({ database, rounds }) => {
    const p50 = median(rounds.map((round) => round.put.p50));
    return `${database}: ${met(p50, BUDGET.kosyncPut)} (p50 ${p50} ms)`;
  });
  return `## KOReader progress sync (budget: \`PUT /syncs/progress\` p50 ≤ ${BUDGET.kosyncPut} ms, both databases)

One client, one request at a time over Node's fetch (keep-alive), ${requests} requests of each kind per round, the kinds in turn so that each shares the machine's busy moments with the others; medians of ${kosync[0]?.rounds.length ?? 0} rounds' p50 and p99. The key is an app password's MD5, checked by a SHA-256 lookup (auth/app-passwords.ts), not scrypt.

| database | call | p50 (ms) | p99 (ms) | each round's p50 | errors |
|---|---|---:|---:|---|---:|
${rows.join('\n')}

Budget ${BUDGET.kosyncPut} ms: ${verdicts.join('; ')}.
`;
}

function markdown({ machine: m, rounds, kosyncRequests, cases, kosync }: Report): string {
  const postgres = kosync.find((result) => result.settings)?.settings;
  return `# Reader benchmark

Machine: ${m.cores} × ${m.cpu}, ${m.memoryGb} GiB, ${m.platform}, Node ${m.node}; ${m.date}. **Not a quiet machine**: another long benchmark ran on its two cores throughout, and the server, Chromium and this script shared them as well; the floors, taken in the same rounds, show how slow the machine was at the time.${postgres ? ` PostgreSQL ${postgres.server_version} (shared_buffers ${postgres.shared_buffers}, work_mem ${postgres.work_mem}).` : ''}

The books are made at bench time (bench/reader/generate-books.ts), never committed: an EPUB of at least ${mb(EPUB_BYTES)} MB by calibre's ebook-convert from chapters of text, each with a picture; a PDF of at least ${mb(PDF_BYTES)} MB, a picture and a line of text on every page, printed by Chromium, whose PDF writer (Skia's) calibre's ebook-convert prints through, with a balanced page tree as most writers make; and the same kind of PDF by PDFKit, whose page tree is one flat list. None is linearised. They replace the fixture library's EPUB and PDF of one book (the two PDFs take turns as its file), and the built server follows that library (SQLite).

Each of ${rounds} rounds opens each book cold: a new browser context of Debian's Chromium (headless, through playwright-core) signs in and opens the book's page; the browser's cache is emptied and that page reloaded, timed until its "Read" link shows (the first floor: a page of the app, cold, with one API call); the cache is emptied again and "Read" clicked, timed until the first page shows: for the EPUB, foliate-js has told its place and the first chapter's text is in its frame; for a PDF, PDF.js has finished drawing page 1 on its canvas. The second floor is the same server's reply to the file's first fetch, by Node: the whole EPUB (the reader reads an EPUB whole), the PDF's first 64 KB range. The server's files were in the system's page cache after the first round.

Why the flat page tree costs so much: as it opens a document, PDF.js checks that its last page can be read (\`checkLastPage\`), and it finds a page by walking the page tree, skipping a subtree by its \`/Count\`. A flat tree has no subtrees: every page's dictionary is read to reach the last one, and PDFKit writes each beside its page's picture, so the reader fetches one range per page, one after another.

${CASES.map((name) => caseSection(name, cases[name])).join('\n')}
${kosyncSection(kosync, kosyncRequests)}`;
}
