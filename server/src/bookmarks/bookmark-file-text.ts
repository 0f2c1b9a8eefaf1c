import { setImmediate as yieldToOthers } from 'node:timers/promises';
import htmlEncodingSniffer from 'html-encoding-sniffer';
import { AppError } from '../errors.ts';

/** Bytes decoded at a time: a slice of text is what the reader parses before other requests get a turn. */
const SLICE_BYTES = 64 * 1024;
/** The bytes a browser reads for a `<meta>` charset (the HTML standard's prescan). */
const PRESCAN_BYTES = 1024;

/** The file's bytes as they arrived, cut in slices of at most SLICE_BYTES. */
function* slices(chunks: readonly Uint8Array[]): Generator<Uint8Array> {
  for (const chunk of chunks) {
    for (let start = 0; start < chunk.length; start += SLICE_BYTES) yield chunk.subarray(start, start + SLICE_BYTES);
  }
}

function firstBytes(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const head = new Uint8Array(length);
  let filled = 0;
  for (const chunk of chunks) {
    if (filled === length) break;
    const part = chunk.subarray(0, length - filled);
    head.set(part, filled);
    filled += part.length;
  }
  return head.subarray(0, filled);
}

/** Whether every byte is UTF-8, checked a slice at a time with a turn for other requests after each. */
async function isUtf8(chunks: readonly Uint8Array[]): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for (const slice of slices(chunks)) {
      decoder.decode(slice, { stream: true });
      await yieldToOthers();
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/**
 * The encoding of a bookmarks file, as a browser sniffs it: by its byte order mark, else by its
 * `<meta>` charset (Internet Explorer and Netscape wrote Windows-1252 and ISO-8859-1 files that
 * say so). A file that declares nothing is UTF-8 when its bytes are, else Windows-1252, the legacy
 * encoding that browsers assume for Western locales and old Windows programs wrote undeclared.
 */
async function bookmarkFileEncoding(chunks: readonly Uint8Array[]): Promise<string> {
  const head = firstBytes(chunks, PRESCAN_BYTES);
  const declared = htmlEncodingSniffer(head, { defaultEncoding: 'UTF-8' });
  const undeclared = declared === 'UTF-8' && htmlEncodingSniffer(head, { defaultEncoding: 'windows-1252' }) === 'windows-1252';
  if (!undeclared) return declared;
  return (await isUtf8(chunks)) ? 'UTF-8' : 'windows-1252';
}

function textDecoder(encoding: string) {
  try {
    return new TextDecoder(encoding);
  } catch {
    throw new AppError(400, `This bookmarks file is in the encoding ${encoding}, which cannot be read: save it as UTF-8`);
  }
}

/**
 * The text of a bookmarks file received whole, a slice at a time: a large file decoded in one
 * call held every other request meanwhile. A character cut between two slices is
 * kept back by the streaming decoder until the next.
 */
export async function* bookmarkFileText(chunks: readonly Uint8Array[]): AsyncGenerator<string, void, void> {
  const decoder = textDecoder(await bookmarkFileEncoding(chunks));
  for (const slice of slices(chunks)) yield decoder.decode(slice, { stream: true });
  yield decoder.decode();
}
