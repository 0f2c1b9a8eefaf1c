/**
 * The book formats and search fields, apart from the schemas of books.ts: the word index's
 * searching threads need these lists and nothing of zod, whose loading would slow every thread's
 * start.
 */
export const BOOK_FORMATS = ['pdf', 'epub', 'mobi', 'azw3', 'chm'] as const;
export const BOOK_SEARCH_FIELDS = ['title', 'file_path', 'comment', 'author', 'series', 'tags', 'identifiers'] as const;
export type BookSearchField = (typeof BOOK_SEARCH_FIELDS)[number];
