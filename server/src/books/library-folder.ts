import type { CatalogueBook } from '../../../contract/books.ts';

/**
 * The catalogue's library folder: the leading directory that every book's files have in common,
 * shown on the cards so that a path reads from the library down (`Victor Hugo/Les Miserables
 * (1)/….epub`) rather than from the machine's root. Kept with the catalogue and brought up to date
 * by each load, from the books it writes, rather than computed by a read of every book.
 */

const isSeparator = (character: string | undefined) => character === '/' || character === '\\';

/** Where the last separator before `before` is, or -1; native searches, as a load calls this for every file. */
function lastSeparator(path: string, before: number): number {
  if (before <= 0) return -1;
  return Math.max(path.lastIndexOf('/', before - 1), path.lastIndexOf('\\', before - 1));
}

/**
 * The library a file lies in, as far as the file alone tells. Calibre keeps a book's files in
 * `<library>/<author>/<title> (<id>)/`, so a file whose folder ends with its book's id lies two
 * folders further down than its library (books.search.ts indexes paths below it by the same rule):
 * a catalogue of one author still has the library as its folder, not the author's. A file of any
 * other shape lies in its own folder; one without a folder (the CSV's format extensions) in none.
 */
export function fileLibraryFolder(file: string, bookId: string): string {
  const name = lastSeparator(file, file.length);
  if (name < 0) return '';
  const bookFolder = lastSeparator(file, name);
  if (bookFolder >= 0 && file.slice(bookFolder + 1, name).endsWith(` (${bookId})`)) {
    const authorFolder = lastSeparator(file, bookFolder);
    return authorFolder < 0 ? '' : file.slice(0, authorFolder);
  }
  return file.slice(0, name);
}

/** The longest leading directory of both, whole folders only ('/lib/a' and '/lib/ab' share '/lib'); '' when none. */
export function commonFolder(a: string, b: string): string {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  if (longer.startsWith(shorter) && (longer.length === shorter.length || isSeparator(longer[shorter.length]))) {
    return shorter;
  }
  let same = 0;
  while (same < shorter.length && shorter[same] === longer[same]) same += 1;
  // The last separator both share ends the common folder; the root alone ('/') is no folder to strip.
  const end = lastSeparator(shorter, same);
  return end <= 0 ? '' : shorter.slice(0, end);
}

/**
 * The library folder of a catalogue as books are added to it, starting from the folder of the
 * books it already holds: `undefined` while no book has a file. A folder only ever gets shorter,
 * so a book replaced by an `update` load leaves the folder one that every remaining book is under.
 */
export function libraryFolderTracker(start: string | undefined) {
  let folder = start;
  return {
    add(book: Pick<CatalogueBook, 'id' | 'path' | 'formats'>): void {
      const files = book.formats.length > 0 ? book.formats : [book.path];
      for (const file of files) {
        if (file === '' || folder === '') continue;
        const own = fileLibraryFolder(file, book.id);
        folder = folder === undefined ? own : commonFolder(folder, own);
      }
    },
    get folder(): string | undefined {
      return folder;
    },
  };
}
