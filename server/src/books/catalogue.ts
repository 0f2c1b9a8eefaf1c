import type { Kysely, Selectable } from 'kysely';
import type { BookQuery, BookSearchField, CatalogueBook } from '../../../contract/books.ts';
import type { BooksTable, Database } from '../storage/schema.ts';
import { BOOK_FORMATS } from '../../../contract/books.ts';
import { htmlText, keyWords, searchTerms, searchWords } from '../search/search-text.ts';

/** One catalogue per installation, behind one interface with an implementation per database. */
export interface Catalogue {
  search(query: CatalogueQuery): Promise<{ total: number; books: CatalogueBook[] }>;
  get(id: string): Promise<CatalogueBook | undefined>;
  /** Changes whenever a load commits, on whichever server instance, so results can be cached by it. */
  version(): Promise<string>;
  /** Every book, in catalogue order, a page at a time (for the export). */
  all(): AsyncIterable<CatalogueBook>;
  /**
   * Runs `load` inside one transaction: readers see the old catalogue until it commits, and a
   * load that throws changes nothing. `replace` empties the catalogue first.
   */
  load<T>(mode: 'update' | 'replace', load: (write: (book: CatalogueBook) => Promise<void>) => Promise<T>): Promise<T>;
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
};

/** The catalogue's question for a search of the API; fields sorted, so that equal searches are equal. */
export function catalogueQuery(query: Pick<BookQuery, 'keys' | 'fields' | 'format' | 'from' | 'size'>): CatalogueQuery {
  const terms = searchTerms(query.keys);
  return {
    terms,
    identifier: terms.length > 0 ? typedIdentifier(query.keys) : '',
    fields: [...query.fields].sort(),
    format: query.format,
    from: query.from,
    size: query.size,
  };
}

/**
 * Ranking costs about half a microsecond a match. A search that matches more books than this
 * (a lone "the") lists them in reverse catalogue order instead, at a hundredth of the cost: with
 * that many results no order helps, and the user narrows the search.
 */
export const RANKED_MATCH_LIMIT = 5000;

export const VERSION_SETTING = 'books_version';

/** A book's formats as bits, so that the format filter is one integer test on either database. */
export function formatMask(paths: string[]): number {
  let mask = 0;
  for (const file of paths) {
    const extension = file.slice(file.lastIndexOf('.') + 1).toLowerCase();
    const bit = BOOK_FORMATS.indexOf(extension as (typeof BOOK_FORMATS)[number]);
    if (bit >= 0) mask |= 1 << bit;
  }
  return mask;
}

export const formatBit = (format: CatalogueQuery['format']) =>
  format === '' ? 0 : 1 << BOOK_FORMATS.indexOf(format);

/**
 * The text each search field indexes: the comment without its markup, every file path of the
 * book below its library folder. Each engine then reduces it to words (see search-text.ts).
 */
export function indexedText(book: CatalogueBook): Record<BookSearchField, string> {
  const files = book.formats.length > 0 ? book.formats : [book.path];
  return {
    title: book.title,
    author: book.author,
    comment: book.comment ? htmlText(book.comment) : '',
    file_path: files.map((file) => pathInLibrary(file, book.id)).join(' '),
  };
}

/**
 * The part of a file's path below its Calibre library: the library's own folders
 * ("/home/…/Calibre Library") are in every book's paths, so their words would match every book.
 * Calibre keeps each book's files in `<library>/<author>/<title> (<id>)/`, so a path whose folder
 * ends with the book's id names its library two folders further up. A path of another shape
 * (metadata.db's are relative already; the CSV has format extensions) is indexed whole.
 */
export function pathInLibrary(file: string, bookId: string): string {
  const parts = file.split(/[\\/]/);
  return parts.length > 3 && parts.at(-2)!.endsWith(` (${bookId})`) ? parts.slice(-3).join('/') : file;
}

/**
 * An identifier as it is matched: letters and digits only, folded and in lower case, so that
 * "978-0-14-044913-6" and "9780140449136" are one. Of the book's `type:value`, the value.
 */
export const identifierKey = (identifier: string) => searchWords(identifier.slice(identifier.indexOf(':') + 1)).join('');

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
 * The ranking, the same on both databases: books whose title holds every searched word first,
 * then shorter titles first (in words), then catalogue order. For a search of titles alone
 * (the default) that is BM25's order whenever each word matches once per title, as it nearly
 * always does. The length is stored with the book, so ranking reads one number a match rather
 * than BM25's walk through every searched word's postings, which was half of a search's time.
 */
export const titleWords = (book: CatalogueBook) => searchWords(book.title).length;

/** A search of titles alone: every match holds every word in its title, so length alone ranks. */
export const ranksByTitleLength = (query: Pick<CatalogueQuery, 'fields'>) =>
  query.fields.length === 1 && query.fields[0] === 'title';

/** The row as stored: times as epoch milliseconds, formats as JSON. */
export type BookRow = Omit<Selectable<BooksTable>, 'seq'>;

export const BOOK_COLUMNS = [
  'id', 'title', 'author', 'identifier', 'publish_date', 'publisher', 'created', 'updated', 'comment', 'path', 'formats',
  'format_mask',
] as const satisfies ReadonlyArray<keyof BookRow>;

const EXPORT_PAGE = 1000;

/** The reads that are the same SQL on both databases. */
export function catalogueReads(db: Kysely<Database>): Pick<Catalogue, 'get' | 'all' | 'version'> {
  // Asked before every search: built and compiled once.
  const versionQuery = db.selectFrom('settings').select('value').where('key', '=', VERSION_SETTING).compile();
  return {
    async get(id) {
      const row = await db.selectFrom('books').select(BOOK_COLUMNS).where('id', '=', id).executeTakeFirst();
      return row && fromRow(row);
    },

    async *all() {
      for (let after = 0; ; ) {
        const page = await db
          .selectFrom('books')
          .select(['seq', ...BOOK_COLUMNS])
          .where('seq', '>', after)
          .orderBy('seq')
          .limit(EXPORT_PAGE)
          .execute();
        for (const row of page) yield fromRow(row);
        if (page.length < EXPORT_PAGE) return;
        after = page[page.length - 1]!.seq;
      }
    },

    async version() {
      const { rows } = await db.executeQuery(versionQuery);
      return rows[0]?.value ?? 'none';
    },
  };
}

export function toRow(book: CatalogueBook): BookRow {
  return {
    id: book.id,
    title: book.title,
    author: book.author,
    identifier: book.identifier,
    publish_date: book.publish_date,
    publisher: book.publisher,
    created: book.created === null ? null : Date.parse(book.created),
    updated: book.updated === null ? null : Date.parse(book.updated),
    comment: book.comment,
    path: book.path,
    formats: JSON.stringify(book.formats),
    format_mask: formatMask(book.formats),
  };
}

export function fromRow(row: BookRow): CatalogueBook {
  return {
    id: row.id,
    title: row.title,
    author: row.author,
    identifier: row.identifier,
    publish_date: row.publish_date,
    publisher: row.publisher,
    created: row.created === null ? null : new Date(Number(row.created)).toISOString(),
    updated: row.updated === null ? null : new Date(Number(row.updated)).toISOString(),
    comment: row.comment,
    path: row.path,
    formats: JSON.parse(row.formats) as string[],
  };
}
