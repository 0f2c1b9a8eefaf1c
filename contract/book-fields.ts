/**
 * The book formats and search fields, apart from the schemas of books.ts: the word index's
 * searching threads need these lists and nothing of zod, whose loading would slow every thread's
 * start.
 */
export const BOOK_FORMATS = ['pdf', 'epub', 'mobi', 'azw3', 'chm'] as const;
/** The fields the word index holds (search-index/). */
export const BOOK_INDEXED_FIELDS = ['title', 'file_path', 'comment', 'author', 'series', 'tags', 'identifiers'] as const;
export type BookIndexedField = (typeof BOOK_INDEXED_FIELDS)[number];
/**
 * What a search can look in: the word index's fields, and the books' text as Calibre extracted it
 * into its full-text database (`text`, decision 0039), searched when the library has one.
 */
export const BOOK_SEARCH_FIELDS = [...BOOK_INDEXED_FIELDS, 'text'] as const;
export type BookSearchField = (typeof BOOK_SEARCH_FIELDS)[number];
export { SNIPPET_MATCH_END, SNIPPET_MATCH_START } from './text-snippet.ts';
