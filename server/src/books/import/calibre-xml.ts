import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import {
  calibreDate,
  calibreSeries,
  calibreStars,
  calibreTimestamp,
  chooseIdentifier,
  identifierList,
  identifierRecord,
  mainPath,
} from './calibre-mapping.ts';
import { checked, MAX_RECORD_BYTES, type ParsedRecord, recordTooLarge, unreadable } from './parsed-record.ts';

const XML_SLICE_BYTES = 16 * 1024;

/** The fields of one `<record>` of `calibredb catalog books.xml`; it has no last-modified time. */
type XmlRecord = {
  line: number;
  fields: Map<string, string>;
  authors: string[];
  formats: string[];
  tags: string[];
  languages: string[];
  seriesIndex: string;
};

function toBook(record: XmlRecord) {
  const field = (name: string) => record.fields.get(name)?.trim() ?? '';
  const identifiers = identifierList(field('identifiers'));
  return {
    id: field('id'),
    title: field('title'),
    author: record.authors.join(' & '),
    identifier: chooseIdentifier(identifiers),
    publish_date: calibreDate(field('pubdate')),
    publisher: field('publisher'),
    created: calibreTimestamp(field('timestamp')),
    updated: null,
    comment: field('comments') || null,
    path: mainPath(record.formats, field('cover')),
    formats: record.formats,
    ...calibreSeries(field('series'), record.seriesIndex),
    tags: record.tags,
    languages: record.languages,
    rating: calibreStars(field('rating'), 'stars'),
    identifiers: identifierRecord(identifiers),
    has_cover: field('cover') !== '',
  };
}

export async function* parseCalibreXml(input: Readable): AsyncGenerator<ParsedRecord> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const ready: ParsedRecord[] = [];
  const path: string[] = [];
  let record: XmlRecord | null = null;
  let text = '';
  let sawRoot = false;
  // Bytes fed since a record last opened or closed: saxes holds a text node or a tag whole until
  // it ends, so an endless one must be refused here, before saxes has it all.
  let sinceRecordBoundary = 0;
  let openRecordLine: number | null = null;

  parser.on('opentag', (tag) => {
    if (path.length === 0) {
      if (tag.name !== 'calibredb') throw unreadable('the XML is not a Calibre catalogue (no <calibredb> root)');
      sawRoot = true;
    }
    path.push(tag.name);
    text = '';
    if (record !== null && path.length === 3 && tag.name === 'series') record.seriesIndex = String(tag.attributes.index ?? '');
    if (path.length === 2 && tag.name === 'record') {
      record = { line: parser.line, fields: new Map(), authors: [], formats: [], tags: [], languages: [], seriesIndex: '' };
      openRecordLine = record.line;
      sinceRecordBoundary = 0;
    }
  });
  parser.on('text', (chunk) => {
    text += chunk;
  });
  parser.on('cdata', (chunk) => {
    text += chunk;
  });
  parser.on('closetag', (tag) => {
    path.pop();
    if (record === null) return;
    if (tag.name === 'record' && path.length === 1) {
      const book = toBook(record);
      ready.push(book.id ? checked(record.line, book) : { line: record.line, error: 'id: the record has no id' });
      record = null;
      openRecordLine = null;
      sinceRecordBoundary = 0;
    } else if (tag.name === 'author' && path.at(-1) === 'authors') record.authors.push(text.trim());
    else if (tag.name === 'format' && path.at(-1) === 'formats') record.formats.push(text.trim());
    else if (tag.name === 'tag' && path.at(-1) === 'tags') record.tags.push(text.trim());
    // One <languages> element, codes joined by "," when a book has several (`fra,eng`).
    else if (tag.name === 'languages' && path.length === 2) record.languages.push(...text.split(',').map((code) => code.trim()).filter(Boolean));
    else if (path.length === 2) record.fields.set(tag.name, text);
    text = '';
  });

  try {
    const decoder = new StringDecoder('utf8');
    for await (const chunk of input as AsyncIterable<Buffer>) {
      // Fed a slice at a time, so that the count of bytes since a record boundary is off by a slice at most.
      for (let start = 0; start < chunk.length; start += XML_SLICE_BYTES) {
        const slice = chunk.subarray(start, start + XML_SLICE_BYTES);
        sinceRecordBoundary += slice.length;
        if (sinceRecordBoundary > MAX_RECORD_BYTES) throw recordTooLarge(openRecordLine ?? parser.line);
        parser.write(decoder.write(slice));
      }
      yield* ready.splice(0);
    }
    parser.write(decoder.end());
    parser.close();
  } catch (error) {
    if (error instanceof Error && /^\d+:\d+: /.test(error.message)) throw unreadable(`bad XML at ${error.message}`);
    throw error;
  }
  yield* ready.splice(0);
  if (!sawRoot) throw unreadable('the XML is not a Calibre catalogue (no <calibredb> root)');
}
