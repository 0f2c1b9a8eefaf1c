import type { Readable } from 'node:stream';
import { MAX_RECORD_BYTES, recordTooLarge } from './parsed-record.ts';

const NEWLINE = 0x0a;

/**
 * The lines of a stream with their numbers, none longer than MAX_RECORD_BYTES. readline (and
 * split2) gather a line as one growing string and can only measure it once it is held, so a file
 * without a newline would be kept whole; this keeps views of the chunks and counts their bytes.
 */
export async function* boundedLines(input: Readable): AsyncGenerator<{ line: number; text: string }> {
  let line = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
      line++;
      if (pendingBytes + end - start > MAX_RECORD_BYTES) throw recordTooLarge(line);
      const bytes = pending.length === 0 ? chunk.subarray(start, end) : Buffer.concat([...pending, chunk.subarray(start, end)]);
      pending = [];
      pendingBytes = 0;
      yield { line, text: bytes.toString('utf8').replace(/\r$/, '') };
      start = end + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_RECORD_BYTES) throw recordTooLarge(line + 1);
    }
  }
  if (pendingBytes > 0) yield { line: line + 1, text: Buffer.concat(pending).toString('utf8').replace(/\r$/, '') };
}
