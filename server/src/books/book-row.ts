import type { Selectable } from 'kysely';
import { BOOK_FORMATS } from '../../../contract/book-fields.ts';
import type { Book, CatalogueBook } from '../../../contract/books.ts';
import { searchWords } from '../search/search-text.ts';
import type { BooksTable } from '../storage/schema.ts';

/** A book's row as a load writes it: the book's own columns and what is kept beside them for searching. */
export type StoredBook = Omit<Selectable<BooksTable>, 'seq'>;

/**
 * Every column a load writes, with its PostgreSQL type: the one list that the statements writing
 * books are built from. Each value is bound by its column's name, so that a column added (series,
 * tags, languages) cannot shift another's value.
 */
export const STORED_COLUMNS = {
  id: 'text',
  title: 'text',
  author: 'text',
  identifier: 'text',
  publish_date: 'text',
  publisher: 'text',
  created: 'bigint',
  updated: 'bigint',
  comment: 'text',
  path: 'text',
  formats: 'text',
  format_mask: 'int',
  title_words: 'int',
  identifier_key: 'text',
  series: 'text',
  series_index: 'float8',
  tags: 'text',
  languages: 'text',
  rating: 'float8',
  identifiers: 'text',
  has_cover: 'int',
} as const satisfies Record<keyof StoredBook, 'text' | 'bigint' | 'int' | 'float8'>;

export type StoredColumn = keyof typeof STORED_COLUMNS;
export const STORED_COLUMN_NAMES = Object.keys(STORED_COLUMNS) as StoredColumn[];

/** Kept for searching, never read back into a book. */
type SearchColumn = 'title_words' | 'identifier_key';

/** The row a book is read from: times as epoch milliseconds, formats as JSON. */
export type BookRow = Omit<StoredBook, SearchColumn>;

export type BookColumn = Exclude<StoredColumn, SearchColumn>;

export const BOOK_COLUMNS = STORED_COLUMN_NAMES.filter(
  (column): column is BookColumn => column !== 'title_words' && column !== 'identifier_key',
);

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

/**
 * An identifier as it is matched: letters and digits only, folded and in lower case, so that
 * "978-0-14-044913-6" and "9780140449136" are one. Of the book's `type:value`, the value.
 */
export const identifierKey = (identifier: string) => searchWords(identifier.slice(identifier.indexOf(':') + 1)).join('');

/**
 * The title's length in words, stored with the book so that ranking (books.search.ts) reads one
 * number a match rather than BM25's walk through every searched word's postings, which was half
 * of a search's time.
 */
export const titleWords = (book: CatalogueBook) => searchWords(book.title).length;

export function storedRow(book: CatalogueBook): StoredBook {
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
    title_words: titleWords(book),
    identifier_key: identifierKey(book.identifier),
    series: book.series,
    series_index: book.series_index,
    tags: JSON.stringify(book.tags),
    languages: JSON.stringify(book.languages),
    rating: book.rating,
    identifiers: JSON.stringify(book.identifiers),
    has_cover: book.has_cover ? 1 : 0,
  };
}

/**
 * A stored book as the contract's book. Calibre's further fields (migration 0013) may be absent
 * from a row that an earlier migration reads: they are then the book's defaults.
 */
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
    series: row.series ?? null,
    series_index: row.series_index == null ? null : Number(row.series_index),
    tags: JSON.parse(row.tags ?? '[]') as string[],
    languages: JSON.parse(row.languages ?? '[]') as string[],
    rating: row.rating == null ? null : Number(row.rating),
    identifiers: JSON.parse(row.identifiers ?? '{}') as Record<string, string>,
    has_cover: Number(row.has_cover) === 1,
  };
}

/** A book as a search's reply gives it: its place in the whole result, and its comment only when asked. */
export function replyBook({ comment, ...book }: CatalogueBook, index: number, withComment: boolean): Book {
  return { ...book, index, ...(withComment ? { comment } : {}) };
}

const json = JSON.stringify;
const isoTime = (time: number | null) => (time === null ? 'null' : `"${new Date(Number(time)).toISOString()}"`);
const numberOrNull = (value: number | null | undefined) => (value == null ? 'null' : json(Number(value)));

/**
 * `JSON.stringify(replyBook(fromRow(row), index, withComment))`, the same bytes (book-row.test.ts),
 * written from the row as it is: its lists and identifiers are stored as JSON and go in without
 * being parsed and written again. The word index's threads write their pages with it, so that the
 * main thread neither receives a page's rows nor serialises its books.
 */
export function replyBookJson(row: BookRow, index: number, withComment: boolean): string {
  return (
    `{"id":${json(row.id)},"title":${json(row.title)},"author":${json(row.author)},"identifier":${json(row.identifier)},` +
    `"publish_date":${json(row.publish_date)},"publisher":${json(row.publisher)},"created":${isoTime(row.created)},` +
    `"updated":${isoTime(row.updated)},"path":${json(row.path)},"formats":${row.formats},"series":${json(row.series ?? null)},` +
    `"series_index":${numberOrNull(row.series_index)},"tags":${row.tags ?? '[]'},"languages":${row.languages ?? '[]'},` +
    `"rating":${numberOrNull(row.rating)},"identifiers":${row.identifiers ?? '{}'},"has_cover":${Number(row.has_cover) === 1},` +
    `"index":${index}${withComment ? `,"comment":${json(row.comment)}` : ''}}`
  );
}

/** A page of rows as the reply's JSON array of books, the first at `from`. */
export const replyPageJson = (rows: readonly BookRow[], from: number, withComment: boolean) =>
  `[${rows.map((row, position) => replyBookJson(row, from + position, withComment)).join(',')}]`;

/**
 * The ids of a reply's books, read from its JSON without parsing it: each book is an object in the
 * `books` array whose first key is `id` (`replyBookJson`, `replyBook`), so it starts right after
 * `[` or `},`. No other object of a reply does (a book's fields hold no list of objects), and in a
 * string value every `"` is escaped.
 */
export function bookIdsOfReply(replyJson: string): string[] {
  const starts = /(?:\[|\},)\{"id":("(?:[^"\\]|\\.)*")/g;
  return [...replyJson.matchAll(starts)].map((match) => JSON.parse(match[1]!) as string);
}
