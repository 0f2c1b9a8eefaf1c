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
    await Promise.race([pipeline(file, counting(received), fs.createWriteStream(spooled), { signal }), aborted]);
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
