import type { BookIndexedField } from '../../../contract/book-fields.ts';
import type { CatalogueBook } from '../../../contract/books.ts';
import { htmlText } from '../search/search-text.ts';

type IndexedBook = Pick<CatalogueBook, 'id' | 'title' | 'author' | 'comment' | 'path' | 'formats' | 'tags' | 'series' | 'identifiers'>;

/**
 * The text each search field indexes: the comment without its markup, every file path of the
 * book below its library folder. Each engine then reduces it to words (see search-text.ts).
 *
 * Series, tags and identifiers are fields of their own (issue 37: a search of everything finds a
 * book by them). Tags and series stay words of the comment field too, the text about the book, as
 * they were since issue 13: a search of the four original fields kept by a client or a script
 * finds the same books as before. An identifier's value is indexed, not its type, which nearly
 * every book would share.
 */
const FIELD_TEXT: Record<BookIndexedField, (book: IndexedBook) => string> = {
  title: (book) => book.title,
  author: (book) => book.author,
  comment: (book) => [book.comment ? htmlText(book.comment) : '', ...book.tags, book.series ?? ''].filter(Boolean).join(' '),
  file_path: (book) => (book.formats.length > 0 ? book.formats : [book.path]).map((file) => pathInLibrary(file, book.id)).join(' '),
  series: (book) => book.series ?? '',
  tags: (book) => book.tags.join(' '),
  identifiers: (book) => Object.values(book.identifiers).join(' '),
};

/** The text of one field, for a reader that indexes some of them (the index's build splits the fields between two threads). */
export const indexedFieldText = (book: IndexedBook, field: BookIndexedField): string => FIELD_TEXT[field](book);

/** Every field's text. */
export function indexedText(book: IndexedBook): Record<BookIndexedField, string> {
  return Object.fromEntries(Object.entries(FIELD_TEXT).map(([field, text]) => [field, text(book)])) as Record<BookIndexedField, string>;
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
