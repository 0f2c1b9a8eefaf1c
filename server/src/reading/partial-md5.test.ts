import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_LIBRARY } from '../test/fixture-library.ts';
import { fileNameMd5, partialMd5 } from './partial-md5.ts';

const md5 = (data: Buffer | string) => createHash('md5').update(data).digest('hex');

/** KOReader's definition written out again the slow way: the 1 KiB samples cut from the whole file. */
function samplesOf(data: Buffer): Buffer {
  const offsets = [0, ...Array.from({ length: 11 }, (_, i) => 1024 * 4 ** i)];
  const samples: Buffer[] = [];
  for (const offset of offsets) {
    if (offset >= data.length) break;
    samples.push(data.subarray(offset, offset + 1024));
  }
  return Buffer.concat(samples);
}

describe("KOReader's document ids", () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-md5-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  const fileOf = (name: string, data: Buffer) => {
    const file = path.join(work, name);
    fs.writeFileSync(file, data);
    return file;
  };

  it('gives the EPUB and PDF of the fixture library the ids coreutils work out from the definition', async () => {
    // tail -c +$((o+1)) FILE | head -c 1024 for each offset until the end, piped to md5sum.
    expect(await partialMd5(path.join(FIXTURE_LIBRARY, 'Victor Hugo/Les Miserables (3)/Les Miserables - Victor Hugo.epub'))).toBe(
      '8afabe77bcbdefb211201672557a68a2',
    );
    expect(
      await partialMd5(path.join(FIXTURE_LIBRARY, 'Terry Pratchett/The Science of Discworld (1)/The Science of Discworld - Terry Pratchett.pdf')),
    ).toBe('31a33014b7be19b6f0964b71e571ebd4');
  });

  it('samples the start and then 1 KiB × 4^i, stopping at the end, whatever the size', async () => {
    const random = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919 + (i >> 8)) & 0xff));
    for (const size of [0, 1, 1023, 1024, 1025, 4096, 5000, 16_384, 70_000, 262_144, 300_000]) {
      const data = random.subarray(0, size);
      expect(await partialMd5(fileOf(`size-${size}`, data)), `${size} bytes`).toBe(md5(samplesOf(data)));
    }
    // A small file is read whole: its id is its MD5.
    expect(await partialMd5(fileOf('small', Buffer.from('hello')))).toBe(md5('hello'));
  });

  it('gives a file name the MD5 of its UTF-8 bytes', () => {
    expect(fileNameMd5('Les Miserables - Victor Hugo.epub')).toBe('825bcb0bcda0373b9b67b87707a1c4d8');
    expect(fileNameMd5('Les Misérables - Victor Hugo.epub')).toBe(md5(Buffer.from('Les Misérables - Victor Hugo.epub', 'utf8')));
  });
});
