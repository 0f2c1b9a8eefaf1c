import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseBooksJsonl } from './books-jsonl.ts';
import { parseCalibreCsv } from './calibre-csv.ts';
import { parseCalibreJson } from './calibre-json.ts';
import { parseCalibreMetadataDb } from './calibre-metadata-db.ts';
import { parseCalibreXml } from './calibre-xml.ts';
import { type ParsedRecord, unreadable } from './parsed-record.ts';

export type IndexFileKind = 'calibre-json' | 'books-jsonl' | 'calibre-xml' | 'calibre-csv' | 'calibre-metadata-db';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const HEAD_BYTES = 64;

/** Reads enough of the stream to tell what it is, then gives back a stream that starts at the beginning. */
async function peek(input: Readable): Promise<{ head: Buffer; whole: Readable }> {
  const iterator = (input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < HEAD_BYTES) {
    const next = await iterator.next();
    if (next.done) break;
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* replay() {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head, whole: Readable.from(replay(), { objectMode: false }) };
}

/** Told apart by content, never by file name (docs/behaviour/books.md). */
export function detectKind(head: Buffer): IndexFileKind {
  if (head.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return 'calibre-metadata-db';
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('[')) return 'calibre-json';
  if (text.startsWith('{')) return 'books-jsonl';
  if (text.startsWith('<')) return 'calibre-xml';
  if (text.length === 0) throw unreadable('it is empty');
  if (head.includes(0)) throw unreadable('it is not a Calibre export, nor a Calibre library database');
  return 'calibre-csv';
}

function withoutBom(stream: Readable, head: Buffer): Readable {
  if (!head.subarray(0, 3).equals(BOM)) return stream;
  async function* skipBom() {
    let first = true;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      yield first ? chunk.subarray(3) : chunk;
      first = false;
    }
  }
  return Readable.from(skipBom(), { objectMode: false });
}

/**
 * The records of an uploaded index file, whichever kind it is. A database file is first written
 * to `tmpDir` (SQLite reads files, not streams) and removed afterwards.
 */
export async function* readIndexFile(input: Readable, tmpDir: string): AsyncGenerator<ParsedRecord> {
  const { head, whole } = await peek(input);
  const kind = detectKind(head);
  if (kind === 'calibre-metadata-db') {
    fs.mkdirSync(tmpDir, { recursive: true });
    const file = path.join(tmpDir, `upload-${randomUUID()}.db`);
    try {
      await pipeline(whole, fs.createWriteStream(file));
      yield* parseCalibreMetadataDb(file);
    } finally {
      fs.rmSync(file, { force: true });
    }
    return;
  }
  const text = kind === 'calibre-csv' ? whole : withoutBom(whole, head);
  if (kind === 'calibre-json') yield* parseCalibreJson(text);
  else if (kind === 'books-jsonl') yield* parseBooksJsonl(text);
  else if (kind === 'calibre-xml') yield* parseCalibreXml(text);
  else yield* parseCalibreCsv(text);
}
