import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { BookFacet, BookQuery, BookSort, BrowseEntry, BrowseFilter, CatalogueBook } from '../../../contract/books.ts';
import type { SearchIndexStatus } from '../../../contract/health.ts';
import type { Dialect } from '../storage/database.ts';
import type { Database } from '../storage/schema.ts';
import { BOOK_FORMATS, BROWSE_FILTERS } from '../../../contract/books.ts';
import { AppError } from '../errors.ts';
import { keyWords, searchTerms } from '../search/search-text.ts';
import { settingDelete, settingsStore, settingWrite } from '../storage/settings.store.ts';
import { BOOK_COLUMNS, type BookRow, fromRow, replyBook } from './book-row.ts';
import type { BookSearch } from './search-index/book-search.ts';
import type { CatalogueQuery } from './catalogue-query.ts';

/**
 * One catalogue per installation: the books stored in the database (`CatalogueStore`, one
 * implementation per database), searched by words through the book search (search-index/).
 */
export interface Catalogue extends Omit<CatalogueStore, 'list'> {
  /** A facet's values with their counts of books, A–Z, as the search index counted them. */
  facet(facet: BookFacet): Promise<BrowseEntry[]>;
  search(query: CatalogueQuery): Promise<{ total: number; books: CatalogueBook[] }>;
  /**
   * The same search with its page as the reply gives it: a JSON array of the books, each with its
   * index and with its comment only when asked (book-row.ts, `replyBook`). The search index writes
   * it in its searching thread; a listing's books are serialised here (`pageOfSearch`). A search of
   * the books' text gives, for each book of the page it found by its text, a few words of it.
   */
  searchPage(query: CatalogueQuery): Promise<{ total: number; page: string; snippets?: Record<string, string> }>;
  /** How far the search index is. */
  indexStatus(): SearchIndexStatus;
}

/** The books as the database stores them: it does not index their words. */
export interface CatalogueStore {
  /** A search without words: the books by last update, newest first, or as `sort` asks; only those `browse` names. */
  list(query: CatalogueQuery): Promise<{ total: number; books: CatalogueBook[] }>;
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
  /** Lets go of what the catalogue holds beside the storage (the search index's threads). */
  close(): Promise<void>;
}

/** The catalogue of a store searched by `index`: a load tells the index that the catalogue has changed. */
export function searchedCatalogue(store: CatalogueStore, index: BookSearch): Catalogue {
  const { list, ...rest } = store;
  const listPage = pageOfSearch(list);
  return {
    ...rest,
    search: (query) => (query.terms.length === 0 ? list(query) : index.search(query)),
    searchPage: (query) => (query.terms.length === 0 ? listPage(query) : index.searchPage(query)),
    facet: (facet) => index.facet(facet),
    indexStatus: () => index.status(),
    async load(mode, load) {
      const result = await store.load(mode, load);
      // A load ends once a search finds its books; the index before answers meanwhile. A build that
      // fails shows in the index's status, and the books stay loaded.
      await index.changed().catch(() => {});
      return result;
    },
    async close() {
      await index.close();
      await store.close();
    },
  };
}

/** The catalogue's question for a search of the API; fields sorted, so that equal searches are equal. */
export function catalogueQuery(
  query: Pick<BookQuery, 'keys' | 'fields' | 'format' | 'from' | 'size'> &
    Partial<Pick<BookQuery, 'includeComment' | 'sort' | BrowseFilter>>,
): CatalogueQuery {
  const terms = searchTerms(query.keys);
  const browse = Object.fromEntries(
    (Object.keys(BROWSE_FILTERS) as BrowseFilter[]).flatMap((filter) => (query[filter] === undefined ? [] : [[filter, query[filter]]])),
  ) as CatalogueQuery['browse'];
  const sort = query.sort ?? 'updated';
  if (terms.length > 0 && (sort !== 'updated' || Object.keys(browse).length > 0)) {
    throw new AppError(400, 'A search with words is ranked: sort and browsing apply to a listing without words');
  }
  return {
    terms,
    identifier: terms.length > 0 ? typedIdentifier(query.keys) : '',
    fields: [...query.fields].sort(),
    format: query.format,
    from: query.from,
    size: query.size,
    comments: query.includeComment ?? true,
    sort,
    browse,
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

/** Every stored book in catalogue order, a page of rows at a time (for the export and re-indexing). */
export async function* bookPages(
  db: Kysely<Database>,
  size: number,
): AsyncIterable<Array<BookRow & { seq: number }>> {
  for (let after = 0; ; ) {
    const page = await db
      .selectFrom('books')
      .select(['seq', ...BOOK_COLUMNS])
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

/** The reads of the store, the same SQL on both databases but for where books without a time sort. */
export function catalogueReads(
  db: Kysely<Database>,
  dialect: Dialect,
): Pick<CatalogueStore, 'list' | 'get' | 'getMany' | 'all' | 'version' | 'libraryFolder'> {
  // Asked before every search: built and compiled once.
  const readVersion = settingsStore(db).reader(VERSION_SETTING);
  const readLibraryFolder = settingsStore(db).reader(LIBRARY_FOLDER_SETTING);
  // SQLite sorts NULL lowest, so DESC already puts books without a time last, as NULLS LAST does
  // there; both orders are the books_updated index's.
  const newestFirst = sql.raw(dialect === 'sqlite' ? 'updated desc, seq' : 'updated desc nulls last, seq');
  // The other orders put books without the value last by `(x is null)` first, which both databases
  // sort false before true.
  const orders: Record<BookSort, ReturnType<typeof sql.raw>> = {
    updated: newestFirst,
    newest: sql.raw('(created is null), created desc, seq'),
    title: sql.raw('lower(title), seq'),
    author: sql.raw('lower(author), lower(title), seq'),
    published: sql.raw('(publish_date is null), publish_date desc, seq'),
    rating: sql.raw('(rating is null), rating desc, seq'),
    series: sql.raw('(series is null), lower(series), series_index, seq'),
  };
  // Exact and case-sensitive on both (SQLite's LIKE folds ASCII case, PostgreSQL's does not).
  const contains = (column: string, part: string) =>
    dialect === 'sqlite' ? sql`instr(${sql.raw(column)}, ${part}) > 0` : sql`strpos(${sql.raw(column)}, ${part}) > 0`;
  const browseFilter = ({ browse }: CatalogueQuery) => {
    const conditions = [];
    // Authors are kept joined by ' & ': one of them is a whole part between the joins.
    if (browse.author !== undefined) conditions.push(contains(`' & ' || author || ' & '`, ` & ${browse.author} & `));
    if (browse.series !== undefined) conditions.push(sql`series = ${browse.series}`);
    // Tags and languages are kept as JSON lists of strings: one of them is its JSON string in the list.
    if (browse.tag !== undefined) conditions.push(contains('tags', JSON.stringify(browse.tag)));
    if (browse.language !== undefined) conditions.push(contains('languages', JSON.stringify(browse.language)));
    if (browse.publisher !== undefined) conditions.push(sql`publisher = ${browse.publisher}`);
    return conditions.length === 0 ? sql.raw('') : sql`and ${sql.join(conditions, sql` and `)}`;
  };
  return {
    async list(query) {
      const filters = sql`${formatFilter(query.format)} ${browseFilter(query)}`;
      const count = await sql<{ n: number | string }>`select count(*) as n from books where 1 = 1 ${filters}`.execute(db);
      const page = await sql<BookRow>`
        select ${sql.raw(BOOK_COLUMNS.join(', '))} from books where 1 = 1 ${filters}
        order by ${orders[query.sort]} limit ${query.size} offset ${query.from}`.execute(db);
      return { total: Number(count.rows[0]?.n ?? 0), books: page.rows.map(fromRow) };
    },

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
