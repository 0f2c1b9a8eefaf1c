import type { CatalogueBook } from '../../../contract/books.ts';
import type { LibraryFiles } from '../books/library/library.files.ts';
import type { FeedBook } from './opds.feed.ts';

/**
 * The books of a page as their entries show them, each link one that answers: a format only when
 * its file is on disk in the library folder, the cover only when it is. OPDS 1.2 gives every entry
 * of an acquisition feed an acquisition link, so a book with no file to download is left out.
 */
export async function feedBooks(files: Pick<LibraryFiles, 'filesOf' | 'cover'>, books: CatalogueBook[]): Promise<FeedBook[]> {
  const shown = await Promise.all(
    books.map(async (book): Promise<FeedBook> => {
      const [onDisk, cover] = await Promise.all([files.filesOf(book), files.cover(book)]);
      return { book, formats: onDisk.map((file) => file.format), cover: cover !== null };
    }),
  );
  return shown.filter((entry) => entry.formats.length > 0);
}

/**
 * Whether a book can be in an acquisition feed, as far as the catalogue tells: a file to serve. The
 * shelves (authors, series, tags) count only such books, so that none leads to books left out.
 */
export const listedInFeeds = (files: Pick<LibraryFiles, 'served'>) => (book: Pick<CatalogueBook, 'formats'>) =>
  files.served && book.formats.length > 0;
