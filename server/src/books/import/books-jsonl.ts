import type { Readable } from 'node:stream';
import { boundedLines } from './bounded-lines.ts';
import { checked, type ParsedRecord, unreadable } from './parsed-record.ts';

/**
 * Our export writes every field of a book; these tell its lines from other JSON objects (a
 * Firefox bookmarks backup has an id and a title too).
 */
const EXPORT_KEYS = ['id', 'title', 'author', 'path', 'formats'];
const isExportedBook = (record: unknown) =>
  typeof record === 'object' && record !== null && !Array.isArray(record) && EXPORT_KEYS.every((key) => key in record);

/** JSON Lines of this API's own book shape: what `GET /api/books/export` writes. */
export async function* parseBooksJsonl(input: Readable): AsyncGenerator<ParsedRecord> {
  let recognised = false;
  for await (const { line, text } of boundedLines(input)) {
    if (text.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      if (!recognised) throw notOurExport();
      yield { line, error: `not valid JSON: ${(error as Error).message}` };
      continue;
    }
    if (!recognised && !isExportedBook(record)) throw notOurExport();
    recognised = true;
    yield checked(line, record as never);
  }
}

const notOurExport = () =>
  unreadable('it starts with “{” but its first line is not a book of this app’s export (JSON Lines, a book with its id, title, author, path and formats on each line)');
