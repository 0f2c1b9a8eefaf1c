import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { BookQuery, BookSearchField, CatalogueBook } from '../../../contract/books.ts';
import type { SearchIndexStatus } from '../../../contract/health.ts';
import type { Database } from '../storage/schema.ts';
import { BOOK_FORMATS } from '../../../contract/books.ts';
import { keyWords, searchTerms } from '../search/search-text.ts';
import { settingDelete, settingsStore, settingWrite } from '../storage/settings.store.ts';
import { BOOK_COLUMNS, type BookColumn, type BookRow, fromRow, replyBook } from './book-row.ts';

/**
 * One catalogue per installation, behind one interface with an implementation per database. The
 * catalogue is the books' store and their search index at once: a search reads the rows it
 * returns straight from the books it matched.
 */
export interface Catalogue {
  search(query: CatalogueQuery): Promise<{ total: number; books: CatalogueBook[] }>;
  /**
   * The same search with its page as the reply gives it: a JSON array of the books, each with its
   * index and with its comment only when asked (book-row.ts, `replyBook`). The word index writes it
   * in its searching thread; a database's engine serialises its books (`pageOfSearch`).
   */
  searchPage(query: CatalogueQuery): Promise<{ total: number; page: string }>;
  get(id: string): Promise<CatalogueBook | undefined>;
  /** The books of these ids that are in the catalogue, in no particular order (one query). */
  getMany(ids: readonly string[]): Promise<CatalogueBook[]>;
  /** Changes whenever a load commits, on whichever server instance, so results can be cached by it. */
  version(): Promise<string>;
  /** The folder every book's files lie in (library-folder.ts), as the last load left it; '' when none. */
  libraryFolder(): Promise<string>;
  /** Every book, in catalogue order, a page at a time (for the export). */
  all(): AsyncIterable<CatalogueBook>;
  /**
   * Runs `load` inside one transaction: readers see the old catalogue until it commits, and a
   * load that throws changes nothing. `replace` empties the catalogue first.
   */
  load<T>(mode: 'update' | 'replace', load: (write: (book: CatalogueBook) => Promise<void>) => Promise<T>): Promise<T>;
  /** How far the word index is (word-index/), when searches use one. */
  indexStatus?(): SearchIndexStatus;
  /** Lets go of what the catalogue holds beside the storage (SQLite's search workers). */
  close(): Promise<void>;
}

export type CatalogueQuery = {
  /** Normalised words, each matched as a prefix; empty lists by last update. */
  terms: string[];
  /** The keys as an identifier (see typedIdentifier); books with that identifier match too. */
  identifier: string;
  fields: BookSearchField[];
  format: '' | (typeof BOOK_FORMATS)[number];
  from: number;
  size: number;
  /**
   * Whether the books' comments are wanted. When they are not, a catalogue may answer them as
   * null: the word index does, since they were a third of the cost of reading a page's rows.
   */
  comments: boolean;
};

/** The catalogue's question for a search of the API; fields sorted, so that equal searches are equal. */
export function catalogueQuery(
  query: Pick<BookQuery, 'keys' | 'fields' | 'format' | 'from' | 'size'> & Partial<Pick<BookQuery, 'includeComment'>>,
): CatalogueQuery {
  const terms = searchTerms(query.keys);
  return {
    terms,
    identifier: terms.length > 0 ? typedIdentifier(query.keys) : '',
    fields: [...query.fields].sort(),
    format: query.format,
    from: query.from,
    size: query.size,
    comments: query.includeComment ?? true,
  };
}

/** `searchPage` of a catalogue whose search gives its books: they are serialised as the reply gives them. */
export const pageOfSearch =
  (search: Catalogue['search']): Catalogue['searchPage'] =>
  async (query) => {
    const { total, books } = await search(query);
    return { total, page: JSON.stringify(books.map((book, position) => replyBook(book, query.from + position, query.comments))) };
  };

const VERSION_SETTING = 'books_version';

/**
 * Gives the catalogue a new version, for a load to write in its transaction: any server instance
 * that reads it then knows its cached results are stale.
 */
export const newCatalogueVersion = (db: Kysely<Database>) => settingWrite(db, VERSION_SETTING, randomUUID());

const LIBRARY_FOLDER_SETTING = 'books_library_folder';

/**
 * Keeps a load's library folder, for it to write in its transaction; with no book that has a file
 * there is none, and the next load starts afresh rather than from ''.
 */
export const libraryFolderWrite = (db: Kysely<Database>, folder: string | undefined) =>
  folder === undefined ? settingDelete(db, LIBRARY_FOLDER_SETTING) : settingWrite(db, LIBRARY_FOLDER_SETTING, folder);

/** The library folder kept by the last load: where an `update` load starts from (library-folder.ts). */
export const libraryFolderRead = (db: Kysely<Database>) =>
  db.selectFrom('settings').select('value').where('key', '=', LIBRARY_FOLDER_SETTING);

/** The format filter, on the books' format bits (book-row.ts): nothing for any format. */
export const formatFilter = (format: CatalogueQuery['format'], column: 'format_mask' | 'b.format_mask' = 'format_mask') =>
  format === '' ? sql.raw('') : sql`and ${sql.raw(column)} & ${1 << BOOK_FORMATS.indexOf(format)} != 0`;

const MAX_IDENTIFIER_KEY = 64;

/**
 * A search finds a book by its identifier when the keys are its whole value (hyphens, spaces and
 * case aside), whatever fields are chosen. Longer keys cannot be an identifier.
 */
export function typedIdentifier(keys: string): string {
  const key = keyWords(keys).join('');
  return key.length <= MAX_IDENTIFIER_KEY ? key : '';
}

/**
 * Every stored book in catalogue order, a page of rows at a time (for the export and re-indexing).
 * A migration names the columns that existed when it was written (`columns`); the others read as
 * their defaults (see `fromRow`).
 */
export async function* bookPages(
  db: Kysely<Database>,
  size: number,
  columns: readonly BookColumn[] = BOOK_COLUMNS,
): AsyncIterable<Array<BookRow & { seq: number }>> {
  for (let after = 0; ; ) {
    const page = await db
      .selectFrom('books')
      .select(['seq', ...columns])
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(size)
      .execute();
    if (page.length > 0) yield page as Array<BookRow & { seq: number }>;
    if (page.length < size) return;
    after = page[page.length - 1]!.seq;
  }
}

const EXPORT_PAGE = 1000;

/** The reads that are the same SQL on both databases. */
export function catalogueReads(db: Kysely<Database>): Pick<Catalogue, 'get' | 'getMany' | 'all' | 'version' | 'libraryFolder'> {
  // Asked before every search: built and compiled once.
  const readVersion = settingsStore(db).reader(VERSION_SETTING);
  const readLibraryFolder = settingsStore(db).reader(LIBRARY_FOLDER_SETTING);
  return {
    async get(id) {
      const row = await db.selectFrom('books').select(BOOK_COLUMNS).where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },

    async getMany(ids) {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('books').select(BOOK_COLUMNS).where('id', 'in', ids).execute();
      return rows.map(fromRow);
    },

    async *all() {
      for await (const page of bookPages(db, EXPORT_PAGE)) {
        for (const row of page) yield fromRow(row);
      }
    },

    async version() {
      return (await readVersion()) ?? 'none';
    },

    async libraryFolder() {
      return (await readLibraryFolder()) ?? '';
    },
  };
}
