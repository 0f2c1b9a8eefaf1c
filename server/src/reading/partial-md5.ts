import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';

/** KOReader samples this many bytes at each place it reads. */
const SAMPLE_BYTES = 1024;

/**
 * Where KOReader reads a file to tell it apart (its `util.partialMD5`): the start, then 1 KiB times
 * each power of four from 4^0 to 4^10 (1 KiB, 4 KiB, 16 KiB … 1 GiB). Reading at the start and
 * ever further apart weighs the head of a file, so that data appended to a PDF seldom changes it.
 */
const SAMPLE_OFFSETS = [0, ...Array.from({ length: 11 }, (_, power) => SAMPLE_BYTES * 4 ** power)];

/**
 * The document id KOReader's sync gives a file by its content ("binary", its default): the MD5 of
 * up to 1 KiB read at each offset above, in order, stopping at the first offset at or past the
 * end of the file. So 12 reads of 1 KiB at most, whatever the file's size.
 */
export async function partialMd5(file: string): Promise<string> {
  const hash = createHash('md5');
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(SAMPLE_BYTES);
    for (const offset of SAMPLE_OFFSETS) {
      const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, offset);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/** The document id KOReader's sync gives a file by its name ("file name"): the MD5 of the name, without its folder. */
export const fileNameMd5 = (name: string) => createHash('md5').update(name).digest('hex');
