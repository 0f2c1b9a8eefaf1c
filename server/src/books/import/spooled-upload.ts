import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export type SpooledUpload = { file: string; size: number; remove(): void };

/** Counts the bytes going through, for a progress bar. */
function counting(onBytes: (bytes: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

/** A young collection this often, and a full one every FULL_EVERY: measured at a million books (below). */
const YOUNG_EVERY_BYTES = 2 * 2 ** 20;
const FULL_EVERY = 16;

/**
 * Collects the received chunks as they are written, where the server runs with `gc` (npm start).
 * Each chunk comes in a Buffer of its own whose bytes live outside V8's heap, and a receive makes
 * little else, so no collection came until those bytes reached V8's external limit: a million-book
 * upload (1.3 GB) left 70 MB of dead chunks in the main thread's malloc heap, which malloc then
 * kept. A young collection here takes under a millisecond; the few chunks in flight at one are
 * promoted, and the full one (about 30 ms) frees those.
 */
function collectingAsReceived(): Transform {
  let sinceYoung = 0;
  let young = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sinceYoung += chunk.length;
      if (globalThis.gc && sinceYoung >= YOUNG_EVERY_BYTES) {
        sinceYoung = 0;
        young = (young + 1) % FULL_EVERY;
        globalThis.gc({ type: young === 0 ? 'major' : 'minor' });
      }
      done(null, chunk);
    },
  });
}

/**
 * An upload's file received whole into `tmpDir` before it is read: the bytes phase ends when the
 * last byte is in, and the load that follows no longer depends on the request. A failed or
 * aborted receive leaves no file behind.
 */
export async function spoolUpload(
  file: Readable,
  tmpDir: string,
  { signal, received }: { signal: AbortSignal; received: (bytes: number) => void },
): Promise<SpooledUpload> {
  fs.mkdirSync(tmpDir, { recursive: true });
  const spooled = path.join(tmpDir, `upload-${randomUUID()}`);
  const remove = () => fs.rmSync(spooled, { force: true });
  // An abort does not wait for the pipeline to come apart: the upload's stream ends only when its
  // request does, and a cancelled client may hold its request open.
  const aborted = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  try {
    await Promise.race([pipeline(file, counting(received), collectingAsReceived(), fs.createWriteStream(spooled), { signal }), aborted]);
  } catch (error) {
    remove();
    throw error;
  }
  return { file: spooled, size: fs.statSync(spooled).size, remove };
}

/** The received file read back, telling how far into it the reader is (for "about N records"). */
export function readSpooledUpload(spooled: SpooledUpload, readFrom: (bytesRead: number, size: number) => void): Readable {
  let bytesRead = 0;
  return fs.createReadStream(spooled.file).pipe(
    counting((bytes) => {
      bytesRead += bytes;
      readFrom(bytesRead, spooled.size);
    }),
  );
}
