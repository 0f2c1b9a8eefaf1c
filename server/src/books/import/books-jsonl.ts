import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { checked, type ParsedRecord } from './parsed-record.ts';

/** JSON Lines of this API's own book shape: what `GET /api/books/export` writes. */
export async function* parseBooksJsonl(input: Readable): AsyncGenerator<ParsedRecord> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      yield { line, error: `not valid JSON: ${(error as Error).message}` };
      continue;
    }
    yield checked(line, record as never);
  }
}
