import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { SNIPPET_MATCH_END, SNIPPET_MATCH_START } from '../../../../contract/book-fields.ts';
import { fts5Match } from '../../search/fts5-query.ts';

/** The books' text as this server searches it, beside the data (`DATA_DIR`); made from Calibre's own (calibre-text.ts). */
export const BOOK_TEXT_FILE = 'book-text.sqlite';

/** The words a snippet shows at most, around the matches. */
const SNIPPET_WORDS = 24;

/**
 * Opens the file, making its tables when it is new. One row of text a book, its rowid the book's
 * Calibre id, which the catalogue keeps as the book's `id`: a search finds Calibre ids, and the
 * searching thread keeps those the catalogue holds. `book_source` says which of Calibre's rows each
 * text came from, so that an update reads again only the books whose text changed. WAL, so that the
 * searching threads read the text before an update until it commits.
 */
export function openBookTextFile(file: string): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: 10_000 });
  db.exec(`
    pragma journal_mode = wal;
    create table if not exists book_source (book integer primary key, format text not null, text_hash text not null);
    create virtual table if not exists book_text using fts5(text, tokenize = 'unicode61 remove_diacritics 2');
  `);
  return db;
}

export type BookTextSearch = {
  /** The Calibre ids of the books whose text has every term (each a prefix), in no order. */
  find(terms: readonly string[]): string[];
  /** For each of these books whose text has every term, a few words of it around them, matches marked. */
  snippets(terms: readonly string[], ids: readonly string[]): Record<string, string>;
  close(): void;
};

/** The searches of the file, for a searching thread; none while the file has not been made. */
export function bookTextSearch(file: string): BookTextSearch | undefined {
  if (!fs.existsSync(file)) return undefined;
  const db = new DatabaseSync(file, { timeout: 10_000 });
  const find = db.prepare('select rowid as book from book_text where book_text match ?');
  const snippets = db.prepare(
    `select rowid as book, snippet(book_text, 0, ?, ?, '…', ${SNIPPET_WORDS}) as snippet
     from book_text where book_text match ? and rowid in (select value from json_each(?))`,
  );
  const match = (terms: readonly string[]) => fts5Match(terms, ['text'], ['text']);
  return {
    find: (terms) => (find.all(match(terms)) as Array<{ book: number }>).map(({ book }) => String(book)),
    snippets(terms, ids) {
      if (ids.length === 0) return {};
      const rows = snippets.all(SNIPPET_MATCH_START, SNIPPET_MATCH_END, match(terms), JSON.stringify(ids.map(Number))) as Array<{
        book: number;
        snippet: string;
      }>;
      return Object.fromEntries(rows.map(({ book, snippet }) => [String(book), snippet]));
    },
    close: () => db.close(),
  };
}
