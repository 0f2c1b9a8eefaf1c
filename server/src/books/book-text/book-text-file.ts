import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { fts5Match } from '../../search/fts5-query.ts';
import { snippetOf } from '../../search/text-snippet.ts';

/** The books' text as this server searches it, beside the data (`DATA_DIR`); made from Calibre's own (calibre-text.ts). */
export const BOOK_TEXT_FILE = 'book-text.sqlite';

/** The file's layout: a file of another is made again, and filled by the next update. */
const FORMAT = 1;
const TOKENIZER = `tokenize = 'unicode61 remove_diacritics 2'`;
/**
 * The write-ahead log left on disk after a checkpoint: a first update writes the whole text in one
 * transaction, and its log would otherwise stay as large as the text.
 */
const WAL_KEPT_BYTES = 16 * 2 ** 20;

/**
 * Opens the file, making its tables when it is new (or of another format). The words of each book
 * are indexed without their text or positions (`book_words`, its rowid the book's Calibre id,
 * which the catalogue keeps as the book's `id`), to find the books that have every word; the text
 * is kept apart (`book_text`), for snippets (search/text-snippet.ts). `book_source` says which of
 * Calibre's rows each text came from, so that an update reads again only the books whose text
 * changed. WAL, so that the searching threads read the text before an update until it commits.
 */
export function openBookTextFile(file: string): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: 10_000 });
  db.exec(`pragma journal_mode = wal; pragma journal_size_limit = ${WAL_KEPT_BYTES};`);
  if ((db.prepare('pragma user_version').get() as { user_version: number }).user_version !== FORMAT) {
    db.exec(`
      begin;
      drop table if exists book_source;
      drop table if exists book_words;
      drop table if exists book_text;
      create table book_source (book integer primary key, format text not null, text_hash text not null);
      create virtual table book_words using fts5(text, content = '', contentless_delete = 1, detail = none, ${TOKENIZER});
      create table book_text (book integer primary key, text text not null);
      pragma user_version = ${FORMAT};
      commit;
    `);
  }
  return db;
}

export type BookTextSearch = {
  /** The Calibre ids of the books whose text has every term (each a prefix), in no order. */
  find(terms: readonly string[]): string[];
  /** For each of these books, a few words of its text around the first of the terms, matches marked. */
  snippets(terms: readonly string[], ids: readonly string[]): Record<string, string>;
  close(): void;
};

/** The searches of the file, for a searching thread; none while the file has not been made. */
export function bookTextSearch(file: string): BookTextSearch | undefined {
  if (!fs.existsSync(file)) return undefined;
  const db = new DatabaseSync(file, { timeout: 10_000 });
  const find = db.prepare('select rowid as book from book_words where book_words match ?');
  const text = db.prepare('select text from book_text where book = ?');
  return {
    find: (terms) => (find.all(fts5Match(terms, ['text'], ['text'])) as Array<{ book: number }>).map(({ book }) => String(book)),
    snippets(terms, ids) {
      const found: Record<string, string> = {};
      for (const id of ids) {
        const row = text.get(Number(id)) as { text: string } | undefined;
        const snippet = row && snippetOf(row.text, terms);
        if (snippet !== undefined) found[id] = snippet;
      }
      return found;
    },
    close: () => db.close(),
  };
}
