import type { Readable } from 'node:stream';
import { unreadable } from './parsed-record.ts';

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
  let buffer: Buffer = Buffer.alloc(0);
  let position = 0;
  let line = 1;
  let started = false;
  let finished = false;
  let depth = 0;
  let inString = false;
  let elementStart = -1;
  let elementLine = 0;

  for await (const chunk of input as AsyncIterable<Buffer>) {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    for (; position < buffer.length; position++) {
      const byte = buffer[position]!;
      if (byte === NEWLINE) line++;
      if (depth > 0) {
        if (inString) {
          // Most bytes are inside strings: jump to the next quote natively, then see if it is escaped.
          const quote = buffer.indexOf(QUOTE, position);
          if (quote < 0) {
            position = buffer.length - 1;
            continue;
          }
          position = quote;
          let backslashes = 0;
          while (buffer[position - 1 - backslashes] === BACKSLASH && position - 1 - backslashes >= elementStart) backslashes++;
          if (backslashes % 2 === 0) inString = false;
        } else if (byte === QUOTE) inString = true;
        else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
        else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
          depth--;
          if (depth === 0) {
            yield { line: elementLine, text: buffer.toString('utf8', elementStart, position + 1) };
            elementStart = -1;
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
    // Keep only the unfinished element, so memory holds one record, not the file.
    const keepFrom = elementStart >= 0 ? elementStart : position;
    buffer = buffer.subarray(keepFrom);
    position -= keepFrom;
    if (elementStart >= 0) elementStart = 0;
  }
  if (!finished) throw unreadable(started ? 'it ends before its list is closed (truncated?)' : 'it is empty');
}
