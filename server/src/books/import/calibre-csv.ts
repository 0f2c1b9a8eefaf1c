import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { calibreDate, calibreTimestamp, chooseIdentifier, identifierList } from './calibre-mapping.ts';
import { checked, type ParsedRecord, unreadable } from './parsed-record.ts';

/**
 * `calibredb catalog books.csv`. It holds less than the JSON: formats as extensions only (no
 * file paths), comments already turned to plain text, and no last-modified time.
 */
type CalibreCsvRow = Record<string, string | undefined>;

const REQUIRED_COLUMNS = ['id', 'title', 'authors'];


export function fromCalibreCsv(row: CalibreCsvRow) {
  const formats = (row.formats ?? '')
    .split(',')
    .map((format) => format.trim().toLowerCase())
    .filter(Boolean);
  return {
    id: row.id?.trim() ?? '',
    title: row.title ?? '',
    author: row.authors ?? '',
    identifier: chooseIdentifier(identifierList(row.identifiers)),
    publish_date: calibreDate(row.pubdate),
    publisher: row.publisher ?? '',
    created: calibreTimestamp(row.timestamp),
    updated: null,
    comment: row.comments?.trim() ? row.comments.trim() : null,
    path: formats.includes('epub') ? 'epub' : (formats[0] ?? ''),
    formats,
  };
}

export async function* parseCalibreCsv(input: Readable): AsyncGenerator<ParsedRecord> {
  const rows = input.pipe(parse({ bom: true, columns: true, info: true, skip_empty_lines: true }));
  let checkedHeader = false;
  try {
    for await (const { record, info } of rows as AsyncIterable<{ record: CalibreCsvRow; info: { lines: number } }>) {
      if (!checkedHeader) {
        const missing = REQUIRED_COLUMNS.filter((column) => !(column in record));
        if (missing.length > 0) throw unreadable(`the CSV has no ${missing.join(', ')} column`);
        checkedHeader = true;
      }
      const book = fromCalibreCsv(record);
      if (!book.id) yield { line: info.lines, error: 'id: the record has no id' };
      else yield checked(info.lines, book);
    }
  } catch (error) {
    if (error instanceof CsvError) throw unreadable(`${error.message}`);
    throw error;
  }
}
