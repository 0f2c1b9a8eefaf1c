/**
 * `npm run bench -- book-text`: a search of the books' text (decision 0039) at 5,000 books with
 * their text, in-process as the books service asks it (the searching thread, its hop, the word
 * index, the page's rows and snippets; no HTTP), beside its floor: the same FTS5 query alone on a
 * bare connection to the same file. Writes bench/results/book-text.{json,md}.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { CatalogueBook } from '../../contract/books.ts';
import { BOOK_TEXT_FILE } from '../../server/src/books/book-text/book-text-file.ts';
import { updateBookText } from '../../server/src/books/book-text/book-text-update.ts';
import { CALIBRE_FULL_TEXT_DB } from '../../server/src/books/book-text/calibre-text.ts';
import { catalogueQuery, searchedCatalogue } from '../../server/src/books/books.search.ts';
import { createSqliteCatalogue } from '../../server/src/books/catalogue.sqlite.ts';
import { createBookSearch } from '../../server/src/books/search-index/book-search.ts';
import { fts5Match } from '../../server/src/search/fts5-query.ts';
import { migrate, openStorage } from '../../server/src/storage/database.ts';
import { machine, percentile } from '../lib/measure.ts';
import { generateBooks, random, VOCABULARY } from './generate-catalogue.ts';
import { typedQueries } from './query-stream.ts';

const RESULTS = path.resolve(import.meta.dirname, '../results');
const BOOKS = Number(process.env.BENCH_BOOKS ?? 5000);
/**
 * A book's text, in characters on average: about 5,500 words, a long short story. A novel has ten
 * times more; this size keeps the run's files to a few hundred megabytes.
 */
const TEXT_CHARS = Number(process.env.BENCH_TEXT_CHARS ?? 32_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const WARM_UP = 30;

/** Calibre's `books_text` table as calibre 6.13 makes it; calibre's own FTS tables need its tokenizer, and are not read. */
const CALIBRE_BOOKS_TEXT = `CREATE TABLE books_text ( id INTEGER PRIMARY KEY, book INTEGER NOT NULL, timestamp REAL NOT NULL,
  format TEXT NOT NULL COLLATE NOCASE, format_hash TEXT NOT NULL COLLATE NOCASE, format_size INTEGER NOT NULL DEFAULT 0,
  searchable_text TEXT NOT NULL DEFAULT "", text_size INTEGER NOT NULL DEFAULT 0, text_hash TEXT NOT NULL COLLATE NOCASE DEFAULT "",
  err_msg TEXT DEFAULT "", UNIQUE(book, format))`;

/** Sentences of the catalogue's own words, common ones far more often (rank r about 1 / r), as a book's prose. */
function writeCalibreText(file: string) {
  const r = random(11);
  const word = () => VOCABULARY[Math.min(VOCABULARY.length, Math.floor(VOCABULARY.length ** r.next())) - 1]!;
  const db = new DatabaseSync(file);
  db.exec(CALIBRE_BOOKS_TEXT);
  const insert = db.prepare(
    `insert into books_text (book, timestamp, format, format_hash, searchable_text, text_size, text_hash) values (?, 0, 'EPUB', '', ?, ?, ?)`,
  );
  db.exec('begin');
  let chars = 0;
  for (let book = 1; book <= BOOKS; book++) {
    const sentences: string[] = [];
    const wanted = TEXT_CHARS / 2 + r.int(TEXT_CHARS);
    for (let length = 0; length < wanted; ) {
      const sentence = Array.from({ length: 6 + r.int(14) }, word).join(' ');
      sentences.push(`${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`);
      length += sentence.length + 2;
    }
    const text = sentences.join(' ');
    chars += text.length;
    insert.run(book, text, text.length, String(book));
  }
  db.exec('commit');
  db.close();
  return chars;
}

const megabytes = (file: string) => (fs.existsSync(file) ? Math.round(fs.statSync(file).size / 2 ** 20) : 0);
const latencies = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: +percentile(sorted, 50).toFixed(2), p99: +percentile(sorted, 99).toFixed(2) };
};

export async function benchBookText() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-bench-book-text-'));
  // The catalogue's and the search's threads do not keep a process alive (a server's socket does): this does, meanwhile.
  const alive = setInterval(() => {}, 1000);
  try {
    const storage = await openStorage({ dataDir: work });
    await migrate(storage);
    const store = createSqliteCatalogue(storage.db, storage.sqliteFile!);
    await store.load('replace', async (write) => {
      for (const book of generateBooks(BOOKS)) {
        await write(
          CatalogueBook.parse({
            id: String(book.id),
            title: book.title,
            author: book.authors,
            identifier: `isbn:${book.isbn}`,
            publish_date: null,
            publisher: book.publisher,
            created: book.timestamp,
            updated: book.last_modified,
            comment: book.comments,
            path: book.formats[0] ?? '',
            formats: book.formats,
          }),
        );
      }
    });

    const calibreDb = path.join(work, CALIBRE_FULL_TEXT_DB);
    const textFile = path.join(work, BOOK_TEXT_FILE);
    const textMb = Math.round(writeCalibreText(calibreDb) / 2 ** 20);
    const building = performance.now();
    updateBookText(calibreDb, textFile);
    const buildSeconds = +((performance.now() - building) / 1000).toFixed(1);
    fs.rmSync(calibreDb);

    const catalogue = searchedCatalogue(store, createBookSearch({ source: { kind: 'sqlite', file: storage.sqliteFile! }, textFile, waitForIndex: true, threads: 1 }));
    const queries = typedQueries(BOOKS, WARM_UP + QUERIES).map((words) =>
      catalogueQuery({ keys: words.join(' '), fields: ['title', 'text'], format: '', from: 0, size: 10, includeComment: false }),
    );
    const searchTimes: number[] = [];
    let found = 0;
    for (const [at, query] of queries.entries()) {
      const begun = performance.now();
      const { total } = await catalogue.searchPage(query);
      if (at >= WARM_UP) {
        searchTimes.push(performance.now() - begun);
        found += total;
      }
    }
    await catalogue.close();

    const bare = new DatabaseSync(textFile, { readOnly: true });
    const match = bare.prepare('select rowid from book_words where book_words match ?');
    const floorTimes: number[] = [];
    for (const [at, query] of queries.entries()) {
      const begun = performance.now();
      match.all(fts5Match(query.terms, ['text'], ['text']));
      if (at >= WARM_UP) floorTimes.push(performance.now() - begun);
    }
    bare.close();
    await storage.close();

    const result = {
      machine: machine(),
      loadAverage: os.loadavg().map((load) => +load.toFixed(1)),
      books: BOOKS,
      textMb,
      textFileMb: megabytes(textFile),
      buildSeconds,
      queries: QUERIES,
      meanMatches: Math.round(found / QUERIES),
      search: latencies(searchTimes),
      floor: latencies(floorTimes),
    };
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'book-text.json'), `${JSON.stringify(result, null, 2)}\n`);
    const lines = [
      `# Book text search (${result.machine.date.slice(0, 10)})`,
      '',
      `${BOOKS} books, ${textMb} MB of text (about ${TEXT_CHARS / 1000} KB a book), the file ${result.textFileMb} MB, built in ${buildSeconds} s;`,
      `${QUERIES} typed queries over the title and the text, ${result.meanMatches} books found on average; load average ${result.loadAverage.join(' ')}.`,
      '',
      '| | p50 ms | p99 ms |',
      '|---|---|---|',
      `| search (searching thread, word index, page, snippets) | ${result.search.p50} | ${result.search.p99} |`,
      `| floor: the FTS5 query alone, bare connection | ${result.floor.p50} | ${result.floor.p99} |`,
      '',
    ];
    fs.writeFileSync(path.join(RESULTS, 'book-text.md'), lines.join('\n'));
    console.log(lines.join('\n'));
  } finally {
    clearInterval(alive);
    fs.rmSync(work, { recursive: true, force: true });
  }
}
