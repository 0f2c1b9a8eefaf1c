import anyAscii from 'any-ascii';
import type { CatalogueBook } from '../../../../contract/books.ts';

/** Characters no file name may hold on the systems a download is saved to. */
const UNSAFE_IN_FILE_NAMES = /[\\/:*?"<>|\p{Cc}]+/gu;

/** A download's name from the book itself (Calibre's own file names are folded to ASCII): "Title - Author.epub". */
export function downloadName(book: Pick<CatalogueBook, 'id' | 'title' | 'author'>, format: string): string {
  return fileName([book.title, book.author], `book ${book.id}`, format);
}

/** A download's name from its parts ("Title - Author"), the characters no file name may hold left out; `fallback` when nothing is left. */
export function fileName(parts: readonly string[], fallback: string, extension: string): string {
  const name = parts.map((part) => part.replace(UNSAFE_IN_FILE_NAMES, ' ').trim()).filter(Boolean).join(' - ');
  return `${(name || fallback).slice(0, 200)}.${extension}`;
}

/**
 * The name's ASCII transliteration ("Les Miserables", "Voina i mir") rather than a `?` for each
 * letter beyond ASCII, which an e-reader's storage refuses in a file name.
 */
export function asciiFileName(name: string): string {
  return anyAscii(name).replace(UNSAFE_IN_FILE_NAMES, ' ').replace(/\s+/g, ' ').trim();
}
