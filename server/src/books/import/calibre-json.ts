import type { Readable } from 'node:stream';
import { calibreDate, calibreSeries, calibreStars, calibreTimestamp, chooseIdentifier, identifierRecord, joinAuthors, mainPath } from './calibre-mapping.ts';
import { jsonArrayElements } from './json-array-elements.ts';
import { checked, type ParsedRecord, unreadable } from './parsed-record.ts';

/** One record of `calibredb list --for-machine --fields all`; keys are left out when empty. */
type CalibreJsonBook = {
  id?: number | string;
  title?: string;
  authors?: string | string[];
  identifiers?: Record<string, string>;
  pubdate?: string;
  publisher?: string;
  timestamp?: string;
  last_modified?: string;
  comments?: string;
  formats?: string[];
  cover?: string;
  tags?: string[];
  series?: string;
  series_index?: number;
  rating?: number;
  languages?: string[];
};

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []);

export function fromCalibreJson(record: CalibreJsonBook) {
  const formats = strings(record.formats);
  const identifiers = Object.entries(record.identifiers ?? {});
  return {
    id: record.id === undefined ? '' : String(record.id),
    title: record.title ?? '',
    author: joinAuthors(record.authors),
    identifier: chooseIdentifier(identifiers),
    publish_date: calibreDate(record.pubdate),
    publisher: record.publisher ?? '',
    created: calibreTimestamp(record.timestamp),
    updated: calibreTimestamp(record.last_modified),
    comment: record.comments ?? null,
    path: mainPath(formats, typeof record.cover === 'string' ? record.cover : ''),
    formats,
    ...calibreSeries(record.series, record.series_index),
    tags: strings(record.tags),
    languages: strings(record.languages),
    rating: calibreStars(record.rating, 'tenths'),
    identifiers: identifierRecord(identifiers),
    has_cover: typeof record.cover === 'string' && record.cover !== '',
  };
}

/** calibredb writes every book's `id`, whatever fields it is asked for. */
const isCalibreBook = (record: unknown) => typeof record === 'object' && record !== null && !Array.isArray(record) && 'id' in record;

export async function* parseCalibreJson(input: Readable): AsyncGenerator<ParsedRecord> {
  let recognised = false;
  for await (const { line, text } of jsonArrayElements(input)) {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      yield { line, error: `not valid JSON: ${(error as Error).message}` };
      continue;
    }
    if (!recognised && !isCalibreBook(record)) {
      throw unreadable(`it is a JSON list, but not of Calibre books (\`calibredb list --for-machine\`): its first record, on line ${line}, has no "id"`);
    }
    recognised = true;
    const book = fromCalibreJson(record as CalibreJsonBook);
    if (!book.id) yield { line, error: 'id: the record has no id' };
    else yield checked(line, book);
  }
}
