import { CatalogueBook } from '../../../../contract/books.ts';
import { stripDeep } from '../../control-characters.ts';
import { AppError } from '../../errors.ts';

/** What a parser yields for each record of a file: a book, or why that record was skipped. */
export type ParsedRecord = { line: number; book: CatalogueBook } | { line: number; error: string };

/** The file as a whole cannot be read: a 400, and the catalogue stays as it was. */
export const unreadable = (why: string) => new AppError(400, `The index file cannot be read: ${why}`);

/**
 * The most one record of an index file may take. A Calibre book with a long HTML comment is a few
 * hundred KB; a parser holds one record at a time, so this bounds the memory a load needs.
 */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/** A record over MAX_RECORD_BYTES: refused before it is held whole, and nothing changes. */
export const recordTooLarge = (line: number) =>
  new AppError(413, `The index file cannot be read: the record on line ${line} is larger than ${MAX_RECORD_BYTES / 1024 / 1024} MB, the most a record may be`);

/**
 * Checks a mapped book against the contract, its text without control characters as a request's
 * (docs/behaviour/bad-input-and-limits.md); a bad record is reported, not fatal.
 */
export function checked(line: number, book: CatalogueBook): ParsedRecord {
  const parsed = CatalogueBook.safeParse(stripDeep(book));
  if (parsed.success) return { line, book: parsed.data };
  const issue = parsed.error.issues[0];
  return { line, error: `${issue?.path.join('.') || 'book'}: ${issue?.message ?? 'invalid'}` };
}
