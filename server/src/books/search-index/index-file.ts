import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { CatalogueIndexData } from './catalogue-index.ts';
import type { TypedArray } from './growable.ts';

/**
 * Changes whenever what an index holds or how its words are made changes: a file of another
 * format is built again rather than read.
 */
export const INDEX_FORMAT = 2;

/** What an index was built from: a file of another catalogue is stale. */
export type BuiltFrom = {
  /** The catalogue's version (`books_version`), which every load changes. */
  version: string;
  books: number;
  /** The largest `seq`, 0 for none. */
  lastSeq: number;
};

const MAGIC = Buffer.from('ORGBKIX\n');
const CHECKSUM_BYTES = 32;
const ALIGN = 8;

type ArrayType = { new (buffer: SharedArrayBuffer, offset: number, length: number): TypedArray; readonly BYTES_PER_ELEMENT: number };
const TYPES: Record<string, ArrayType | undefined> = { Uint8Array, Uint16Array, Uint32Array, Int32Array, Float64Array };
type ArrayEntry = { type: string; offset: number; length: number };
type Header = { format: number; builtFrom: BuiltFrom; arrays: ArrayEntry[]; shape: unknown };

const padded = (bytes: number) => Math.ceil(bytes / ALIGN) * ALIGN;

/** The index with each of its arrays replaced by `{ $array: n }`, n its place in `arrays`. */
function shapeOf(value: unknown, arrays: TypedArray[]): unknown {
  if (ArrayBuffer.isView(value)) return { $array: arrays.push(value as TypedArray) - 1 };
  if (Array.isArray(value)) return value.map((item) => shapeOf(item, arrays));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item, arrays)]));
  }
  return value;
}

function fromShape(shape: unknown, arrays: TypedArray[]): unknown {
  if (Array.isArray(shape)) return shape.map((item) => fromShape(item, arrays));
  if (shape !== null && typeof shape === 'object') {
    if ('$array' in shape) {
      const array = arrays[(shape as { $array: number }).$array];
      if (!array) throw new Error('names an array it does not hold');
      return array;
    }
    return Object.fromEntries(Object.entries(shape).map(([key, item]) => [key, fromShape(item, arrays)]));
  }
  return shape;
}

const bytesOf = (array: TypedArray) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/**
 * Writes the index to `file`: through a file beside it, renamed over it once whole and on the
 * disk, so that the file is always a whole index, this one or the one before. The file is its
 * magic, a SHA-256 of all that follows, the header's length and the header (format, what it was
 * built from, where each array lies, the index's shape), then the arrays, each at a multiple of 8
 * bytes so that they can be read in place.
 */
export function writeIndexFile(file: string, builtFrom: BuiltFrom, index: CatalogueIndexData): void {
  const arrays: TypedArray[] = [];
  const shape = shapeOf(index, arrays);
  let offset = 0;
  const entries = arrays.map((array): ArrayEntry => {
    const entry = { type: array.constructor.name, offset, length: array.length };
    offset += padded(array.byteLength);
    return entry;
  });
  const header = Buffer.from(JSON.stringify({ format: INDEX_FORMAT, builtFrom, arrays: entries, shape } satisfies Header));
  const lead = MAGIC.length + CHECKSUM_BYTES + 4;
  const headerBlock = Buffer.alloc(padded(lead + header.length) - MAGIC.length - CHECKSUM_BYTES);
  headerBlock.writeUInt32LE(header.length, 0);
  header.copy(headerBlock, 4);
  const partial = `${file}.partial`;
  const fd = fs.openSync(partial, 'w');
  try {
    const checksum = createHash('sha256');
    let at = MAGIC.length + CHECKSUM_BYTES;
    const write = (bytes: Uint8Array) => {
      checksum.update(bytes);
      fs.writeSync(fd, bytes, 0, bytes.length, at);
      at += bytes.length;
    };
    fs.writeSync(fd, MAGIC, 0, MAGIC.length, 0);
    write(headerBlock);
    const padding = new Uint8Array(ALIGN);
    for (const array of arrays) {
      write(bytesOf(array));
      const pad = padded(array.byteLength) - array.byteLength;
      if (pad > 0) write(padding.subarray(0, pad));
    }
    fs.writeSync(fd, checksum.digest(), 0, CHECKSUM_BYTES, MAGIC.length);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(partial, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  fs.renameSync(partial, file);
}

export type IndexFileRead = { index: CatalogueIndexData; builtFrom: BuiltFrom } | { unusable: string };

/**
 * The index in `file`, read into one block of shared memory that its arrays are views of; or why
 * it is not used: missing, of another format, or damaged (its checksum, or its header, does not
 * hold). Whether it is of the current catalogue is for the caller to say, from `builtFrom`.
 */
export function readIndexFile(file: string): IndexFileRead {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return { unusable: 'there is no index file' };
  }
  try {
    const size = fs.fstatSync(fd).size;
    const lead = MAGIC.length + CHECKSUM_BYTES + 4;
    if (size < lead) return { unusable: 'the index file is damaged (too short)' };
    const memory = new SharedArrayBuffer(size);
    const bytes = new Uint8Array(memory);
    for (let read = 0; read < size; ) {
      const got = fs.readSync(fd, bytes, read, size - read, read);
      if (got === 0) return { unusable: 'the index file is damaged (shorter than it was)' };
      read += got;
    }
    if (!Buffer.from(bytes.subarray(0, MAGIC.length)).equals(MAGIC)) return { unusable: 'the file is not an index file' };
    const stored = Buffer.from(bytes.subarray(MAGIC.length, MAGIC.length + CHECKSUM_BYTES));
    const actual = createHash('sha256').update(bytes.subarray(MAGIC.length + CHECKSUM_BYTES)).digest();
    if (!stored.equals(actual)) return { unusable: 'the index file is damaged (its checksum does not match)' };
    const headerLength = new DataView(memory).getUint32(MAGIC.length + CHECKSUM_BYTES, true);
    const header = JSON.parse(Buffer.from(bytes.subarray(lead, lead + headerLength)).toString()) as Header;
    if (header.format !== INDEX_FORMAT) return { unusable: `the index file is of format ${header.format}, not ${INDEX_FORMAT}` };
    const content = padded(lead + headerLength);
    const arrays = header.arrays.map(({ type, offset, length }) => {
      const Type = TYPES[type];
      if (!Type || content + offset + length * Type.BYTES_PER_ELEMENT > size) throw new Error('an array lies outside the file');
      return new Type(memory, content + offset, length);
    });
    return { index: fromShape(header.shape, arrays) as CatalogueIndexData, builtFrom: header.builtFrom };
  } catch (error) {
    return { unusable: `the index file is damaged (${error instanceof Error ? error.message : String(error)})` };
  } finally {
    fs.closeSync(fd);
  }
}

export const sameCatalogue = (a: BuiltFrom, b: BuiltFrom) => a.version === b.version && a.books === b.books && a.lastSeq === b.lastSeq;
