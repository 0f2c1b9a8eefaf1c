import { gzipAsync } from '@gfx/zopfli';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
/** Zopfli's gzip: 3 % smaller than zlib's best on the client's scripts, for 10 s more of build. */
const gzip = (content: Buffer) => gzipAsync(content, { numiterations: 15 });

/** Text the browser loads; images and fonts are compressed already, and source maps are for a developer's tools. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|webmanifest)$/;

/**
 * Writes a `.br` and a `.gz` beside every compressible file under `dir`, at each format's highest
 * level (gzip by Zopfli, which any gzip reader reads): done once at build, so the server only picks one by the request's Accept-Encoding and
 * never compresses while a page waits. A copy that comes out no smaller is not written.
 */
export async function precompress(dir: string): Promise<void> {
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => COMPRESSIBLE.test(file));
  await Promise.all(
    files.map(async (file) => {
      const full = path.join(dir, file);
      const content = fs.readFileSync(full);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzip(content),
      ]);
      if (br.length < content.length) fs.writeFileSync(`${full}.br`, br);
      if (gz.length < content.length) fs.writeFileSync(`${full}.gz`, gz);
    }),
  );
}
