import { pipeline, type Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import {
  calibreDate,
  calibreSeries,
  calibreStars,
  calibreTimestamp,
  chooseIdentifier,
  commaList,
  identifierList,
  identifierRecord,
} from './calibre-mapping.ts';
import { checked, MAX_RECORD_BYTES, type ParsedRecord, recordTooLarge, unreadable } from './parsed-record.ts';

/**
 * `calibredb catalog books.csv`. It holds less than the JSON: formats as extensions only (no
 * file paths), comments already turned to plain text, and no last-modified time.
 */
type CalibreCsvRow = Record<string, string | undefined>;

const REQUIRED_COLUMNS = ['id', 'title', 'authors'];

export function fromCalibreCsv(row: CalibreCsvRow) {
  const formats = commaList(row.formats).map((format) => format.toLowerCase());
  const identifiers = identifierList(row.identifiers);
  return {
    id: row.id?.trim() ?? '',
    title: row.title ?? '',
    author: row.authors ?? '',
    identifier: chooseIdentifier(identifiers),
    publish_date: calibreDate(row.pubdate),
    publisher: row.publisher ?? '',
    created: calibreTimestamp(row.timestamp),
    updated: null,
    comment: row.comments?.trim() ? row.comments.trim() : null,
    path: formats.includes('epub') ? 'epub' : (formats[0] ?? ''),
    formats,
    ...calibreSeries(row.series, row.series_index),
    tags: commaList(row.tags),
    languages: commaList(row.languages),
    rating: calibreStars(row.rating, 'stars'),
    identifiers: identifierRecord(identifiers),
    has_cover: Boolean(row.cover?.trim()),
  };
}

/** The header is the file's signature: without Calibre's columns it is some other CSV, or no CSV. */
function calibreColumns(header: string[]): string[] {
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0) throw unreadable(`it is not a Calibre CSV catalogue: its first line has no ${missing.join(', ')} column`);
  return header;
}

export async function* parseCalibreCsv(input: Readable): AsyncGenerator<ParsedRecord> {
  // pipeline, not pipe: a failing upload (too large, cut short) must fail the parse too.
  const rows = pipeline(
    input,
    parse({
      bom: true,
      columns: calibreColumns,
      info: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_BYTES,
      // Named rather than discovered: while csv-parse looks for the line ending it is eight times
      // slower a byte, which a long first line without one (any text file) made a CPU sink.
      record_delimiter: ['\r\n', '\n'],
    }),
    () => {},
  );
  try {
    for await (const { record, info } of rows as AsyncIterable<{ record: CalibreCsvRow; info: { lines: number } }>) {
      const book = fromCalibreCsv(record);
      if (!book.id) yield { line: info.lines, error: 'id: the record has no id' };
      else yield checked(info.lines, book);
    }
  } catch (error) {
    if (error instanceof CsvError && error.code === 'CSV_MAX_RECORD_SIZE') throw recordTooLarge((error as CsvError & { lines: number }).lines);
    if (error instanceof CsvError) throw unreadable(`${error.message}`);
    throw error;
  }
}
