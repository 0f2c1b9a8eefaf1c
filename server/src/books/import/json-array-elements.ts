import type { Readable } from 'node:stream';
import { MAX_RECORD_BYTES, recordTooLarge, unreadable } from './parsed-record.ts';

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const COMMA = 0x2c;

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * The objects of a top-level JSON array, one at a time, each with the line it starts on.
 *
 * A streaming JSON tokenizer in JavaScript parses a million-book catalogue several times slower
 * than the budget allows; this only finds where each object begins and ends (structural bytes
 * are ASCII, so bytes can be scanned without decoding) and leaves parsing to the native
 * JSON.parse. Anything outside objects but commas and white space makes the file unreadable.
 */
export async function* jsonArrayElements(input: Readable): AsyncGenerator<{ line: number; text: string }> {
  let line = 1;
  let started = false;
  let finished = false;
  let depth = 0;
  let inString = false;
  let elementLine = 0;
  // The bytes of an element begun in earlier chunks: views of those chunks, joined only when the
  // element ends, so that memory never holds more than one record (at most MAX_RECORD_BYTES) and its chunks.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // Backslashes that ended the previous chunk inside a string: they may escape this chunk's first quote.
  let carriedBackslashes = 0;

  for await (const chunk of input as AsyncIterable<Buffer>) {
    let elementStart = depth > 0 ? 0 : -1;
    for (let position = 0; position < chunk.length; position++) {
      const byte = chunk[position]!;
      if (byte === NEWLINE) line++;
      if (depth > 0) {
        if (inString) {
          // Most bytes are inside strings: jump to the next quote natively, then see if it is escaped.
          const quote = chunk.indexOf(QUOTE, position);
          if (quote < 0) {
            position = chunk.length - 1;
            continue;
          }
          position = quote;
          let backslashes = 0;
          while (position - 1 - backslashes >= 0 && chunk[position - 1 - backslashes] === BACKSLASH) backslashes++;
          if (backslashes === position) backslashes += carriedBackslashes;
          carriedBackslashes = 0;
          if (backslashes % 2 === 0) inString = false;
        } else if (byte === QUOTE) inString = true;
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
        else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
          depth--;
          if (depth === 0) {
            if (pendingBytes + position + 1 - elementStart > MAX_RECORD_BYTES) throw recordTooLarge(elementLine);
            const text =
              pending.length === 0
                ? chunk.toString('utf8', elementStart, position + 1)
                : Buffer.concat([...pending, chunk.subarray(0, position + 1)]).toString('utf8');
            pending = [];
            pendingBytes = 0;
            elementStart = -1;
            yield { line: elementLine, text };
          }
        }
        continue;
      }
      if (isSpace(byte)) continue;
      if (finished) throw unreadable(`unexpected content after the end of the list on line ${line}`);
      if (!started) {
        if (byte !== OPEN_BRACKET) throw unreadable('it does not start with a JSON list');
        started = true;
      } else if (byte === OPEN_BRACE) {
        depth = 1;
        elementStart = position;
        elementLine = line;
      } else if (byte === CLOSE_BRACKET) {
        finished = true;
      } else if (byte !== COMMA) {
        throw unreadable(`line ${line} holds something other than a book record`);
      }
    }
    if (depth > 0) {
      pending.push(chunk.subarray(elementStart));
      pendingBytes += chunk.length - elementStart;
      if (pendingBytes > MAX_RECORD_BYTES) throw recordTooLarge(elementLine);
      if (inString) {
        let trailing = 0;
        while (trailing < chunk.length && chunk[chunk.length - 1 - trailing] === BACKSLASH) trailing++;
        carriedBackslashes = trailing === chunk.length ? carriedBackslashes + trailing : trailing;
      }
    }
  }
  if (!finished) throw unreadable(started ? 'it ends before its list is closed (truncated?)' : 'it is empty');
}
