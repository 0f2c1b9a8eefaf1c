import fs from 'node:fs/promises';
import path from 'node:path';
import type { BookFile, CatalogueBook } from '../../../../contract/books.ts';
import { fileLibraryFolder } from '../library-folder.ts';
import { formatOf } from './book-formats.ts';

/** Calibre keeps a book's cover as this file in the book's folder. */
export const COVER_FILE = 'cover.jpg';

/** A file of the library found on disk: its real path (symlinks resolved) and what `stat` told of it. */
export type LibraryFile = { path: string; size: number; mtimeMs: number };

/** What a book's files are found from. */
type BookOnDisk = Pick<CatalogueBook, 'id' | 'path' | 'formats'>;

/** Errors that mean "no such file here", as opposed to a fault of the server. */
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES', 'ENAMETOOLONG', 'EINVAL']);

/**
 * A stored file path as a path below the library. Paths from the library's own `metadata.db` are
 * already relative (`Author/Title (id)/name.epub`); a Calibre export's are absolute, under the
 * library it was exported from, and keep the same last three parts below it (library-folder.ts).
 */
function belowLibrary(file: string, bookId: string): string {
  return file
    .slice(fileLibraryFolder(file, bookId).length)
    .split(/[/\\]/)
    .filter(Boolean)
    .join('/');
}

/**
 * The files of the Calibre library folder (`CALIBRE_LIBRARY`) that the catalogue names: a book's
 * formats and its cover. Every path comes from the catalogue, which an uploaded index file may
 * have filled with anything, so a path is followed through its symlinks and used only when the real
 * file lies inside the library's real folder; anything else is as absent as a missing file.
 * Without a library folder there are no files at all.
 */
export function createLibraryFiles(folder: string | null) {
  async function inside(relative: string): Promise<LibraryFile | null> {
    if (!folder || relative === '') return null;
    try {
      const root = await fs.realpath(folder);
      const target = await fs.realpath(path.resolve(root, relative));
      const below = path.relative(root, target);
      if (below === '' || below === '..' || below.startsWith(`..${path.sep}`) || path.isAbsolute(below)) return null;
      const stat = await fs.stat(target);
      return stat.isFile() ? { path: target, size: stat.size, mtimeMs: stat.mtimeMs } : null;
    } catch (error) {
      if (error instanceof Error && 'code' in error && MISSING.has(String(error.code))) return null;
      throw error;
    }
  }

  const storedFile = (book: BookOnDisk, format: string) => book.formats.find((file) => formatOf(file) === format);

  /** The book's file of this format (lower case, as `epub`), when it is on disk inside the library. */
  async function file(book: BookOnDisk, format: string): Promise<LibraryFile | null> {
    const stored = storedFile(book, format);
    return stored === undefined ? null : inside(belowLibrary(stored, book.id));
  }

  return {
    /** Whether there is a library folder to serve files from: without one, every file and cover is absent. */
    served: folder !== null,

    file,

    /**
     * The book's cover, in the book's own folder: the folder of its files, when that folder is
     * Calibre's `Title (id)` one (a loose file's folder holds other books' files and no cover of
     * this one). A book without any file but with a cover has its folder as its path.
     */
    async cover(book: BookOnDisk): Promise<LibraryFile | null> {
      const main = belowLibrary(book.path, book.id);
      const bookFolder = /[/\\]$/.test(book.path) ? main : path.posix.dirname(main);
      if (main === '' || !bookFolder.endsWith(` (${book.id})`)) return null;
      return inside(path.posix.join(bookFolder, COVER_FILE));
    },

    /** The formats on disk, each with its size and the URL that downloads it. */
    async filesOf(book: BookOnDisk): Promise<BookFile[]> {
      const formats = [...new Set(book.formats.map(formatOf).filter(Boolean))];
      const onDisk = await Promise.all(formats.map(async (format) => ({ format, found: await file(book, format) })));
      return onDisk.flatMap(({ format, found }) => (found ? [{ format, size: found.size, url: bookFileUrl(book.id, format) }] : []));
    },
  };
}
export type LibraryFiles = ReturnType<typeof createLibraryFiles>;

export const bookFileUrl = (bookId: string, format: string) => `/api/books/${encodeURIComponent(bookId)}/file/${encodeURIComponent(format)}`;
export const bookCoverUrl = (bookId: string, size: 'thumb' | 'full') => `/api/books/${encodeURIComponent(bookId)}/cover?size=${size}`;
