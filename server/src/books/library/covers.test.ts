import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createCoverThumbnails } from './covers.ts';

describe('cover thumbnails', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-covers-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('resizes once for requests that come together, and not again while the cover is the same', async () => {
    const cover = path.join(work, 'cover.jpg');
    await sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#884422' } }).jpeg().toFile(cover);
    const made: unknown[] = [];
    const thumbnails = createCoverThumbnails({ cacheDir: path.join(work, 'cache'), log: { info: (...args: unknown[]) => made.push(args) } });
    const stat = fs.statSync(cover);
    const file = { path: cover, size: stat.size, mtimeMs: stat.mtimeMs };

    const together = await Promise.all(Array.from({ length: 8 }, () => thumbnails.thumbnailOf('42', file)));
    expect(new Set(together).size).toBe(1);
    expect(made).toHaveLength(1);
    expect(await sharp(together[0]).metadata()).toMatchObject({ format: 'jpeg', width: 160, height: 213 });

    expect(await thumbnails.thumbnailOf('42', file)).toBe(together[0]);
    expect(made).toHaveLength(1);
    // Another book with the very same cover file has its own thumbnail.
    await thumbnails.thumbnailOf('43', file);
    expect(made).toHaveLength(2);
  });
});
