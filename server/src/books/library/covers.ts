import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../logger.ts';
import type { LibraryFile } from './library.files.ts';

/**
 * A card shows its cover in a box of 80×120 CSS pixels; the thumbnail is twice that, for screens of
 * two device pixels to one, and stays under 20 kB where a Calibre cover is often 200 kB or more.
 */
export const THUMBNAIL_BOX = { width: 160, height: 240 } as const;

/**
 * sharp (libvips) is loaded with the first thumbnail: a server whose library shows no cover never
 * holds it. Each thumbnail is made once and kept on disk: sharp's own cache of decoded images
 * would only hold memory.
 */
let sharpLoaded: Promise<typeof import('sharp')> | undefined;
const loadSharp = () =>
  (sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  }));

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/**
 * Thumbnails of covers, made with sharp and kept in `cacheDir`. A thumbnail's file name holds its
 * book (hashed: an id may hold any character) and its cover's modification time and size, so a
 * changed cover makes a new thumbnail and the old one is removed. Requests that come together for
 * one thumbnail share one resize.
 */
export function createCoverThumbnails({ cacheDir, log }: { cacheDir: string; log: Pick<Logger, 'info'> }) {
  const making = new Map<string, Promise<string>>();

  async function make(bookKey: string, cover: LibraryFile, file: string): Promise<string> {
    await fs.mkdir(cacheDir, { recursive: true });
    // Written beside and renamed, so that a reader never meets half a thumbnail.
    const partial = path.join(cacheDir, `${randomUUID()}.partial`);
    const started = performance.now();
    try {
      const sharp = await loadSharp();
      await sharp(cover.path)
        .rotate()
        .resize({ ...THUMBNAIL_BOX, fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 80, mozjpeg: true })
        .toFile(partial);
      await fs.rename(partial, file);
      log.info({ cover: cover.path, ms: Math.round(performance.now() - started) }, 'cover thumbnail made');
    } finally {
      await fs.rm(partial, { force: true });
    }
    const stale = (await fs.readdir(cacheDir)).filter((name) => name.startsWith(`${bookKey}-`) && name !== path.basename(file));
    await Promise.all(stale.map((name) => fs.rm(path.join(cacheDir, name), { force: true })));
    return file;
  }

  return {
    /** The path of the cover's thumbnail, made now when there is none for this version of the cover. */
    async thumbnailOf(bookId: string, cover: LibraryFile): Promise<string> {
      const bookKey = createHash('sha256').update(bookId).digest('hex').slice(0, 32);
      const file = path.join(cacheDir, `${bookKey}-${Math.trunc(cover.mtimeMs)}-${cover.size}.jpg`);
      if (!making.has(file) && (await exists(file))) return file;
      // Looked up again after the await: a request that came meanwhile may have started the resize.
      let made = making.get(file);
      if (!made) {
        made = make(bookKey, cover, file).finally(() => making.delete(file));
        making.set(file, made);
      }
      return made;
    },
  };
}
export type CoverThumbnails = ReturnType<typeof createCoverThumbnails>;
