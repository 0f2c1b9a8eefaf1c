import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { generateBooks } from './generate-catalogue.ts';

const OUT = path.resolve(import.meta.dirname, '../out');
const GENERATOR = path.join(import.meta.dirname, 'generate-catalogue.ts');
const MAKER = path.join(import.meta.dirname, 'calibre-make-library.py');

/** calibre's settings for the benchmark, kept apart from any the machine's user has. */
export const CALIBRE_CONFIG_DIRECTORY = path.join(OUT, 'calibre-config');

/** "6.13", as `calibre-debug --version` says it. */
export function calibreVersion(): string {
  const said = execFileSync('calibre-debug', ['--version'], { encoding: 'utf8' });
  return /calibre ([\d.]+)/.exec(said)?.[1] ?? said.trim();
}

export type CalibreLibrary = { dir: string; books: number; buildSeconds: number; cached: boolean };

/** A change to the generator or to the maker makes a new library rather than reusing an old one. */
function generatorVersion(): string {
  const hash = createHash('sha256');
  for (const file of [GENERATOR, MAKER]) hash.update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}

/**
 * A Calibre library of the benchmark's generated books, written by Debian's calibre through its
 * own database API (calibre-make-library.py), and kept under bench/out/ for the next run. The
 * marker file says it was finished and how long it took, so a cached run still reports that.
 */
export async function calibreLibrary(count: number): Promise<CalibreLibrary> {
  const dir = path.join(OUT, `calibre-library-${count}-${generatorVersion()}`);
  const marker = `${dir}.built.json`;
  if (fs.existsSync(marker)) {
    const { buildSeconds } = JSON.parse(fs.readFileSync(marker, 'utf8')) as { buildSeconds: number };
    return { dir, books: count, buildSeconds, cached: true };
  }
  console.log(`  building a Calibre library of ${count} books with calibre…`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const maker = spawn('calibre-debug', [MAKER, dir], {
    env: { ...process.env, CALIBRE_CONFIG_DIRECTORY },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let reply = '';
  maker.stdout.on('data', (chunk) => (reply += chunk));
  const exited = once(maker, 'exit');
  for (const book of generateBooks(count)) {
    const line = JSON.stringify({
      title: book.title,
      authors: book.authors.split(' & '),
      comments: book.comments,
      publisher: book.publisher,
      pubdate: book.pubdate,
      timestamp: book.timestamp,
      isbn: book.isbn,
      formats: book.formats.map((file) => file.slice(file.lastIndexOf('.') + 1)),
    });
    if (!maker.stdin.write(`${line}\n`)) await once(maker.stdin, 'drain');
  }
  maker.stdin.end();
  const [code] = await exited;
  const made = JSON.parse(reply || '{}') as { books?: number };
  if (code !== 0 || made.books !== count) throw new Error(`calibre-debug ended with ${code} after ${reply || 'no reply'}`);
  const buildSeconds = +((performance.now() - started) / 1000).toFixed(1);
  fs.writeFileSync(marker, JSON.stringify({ books: count, buildSeconds }));
  console.log(`  Calibre library of ${count} books built in ${buildSeconds} s`);
  return { dir, books: count, buildSeconds, cached: false };
}
