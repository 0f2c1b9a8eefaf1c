/**
 * `npm run build`: the web client (Vite, into web/dist, each text file beside its Brotli and gzip
 * copies) and the server (its TypeScript into JavaScript under dist/, without a type check, which
 * `npm test` runs), then a stamp of the
 * sources built. With `--if-stale` (`npm ci` and `npm install` through `prepare`, `npm start`
 * through `prestart`, `npm test`, `npm run bench`) nothing is done when the stamp matches the
 * sources, so a start on a built tree starts the server at once.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isBuilt, sourceStamp, STAMP_FILE } from './build-stamp.ts';
import { precompress } from './precompress.ts';

const root = path.resolve(import.meta.dirname, '..');

async function build() {
  // Taken before building, so that a source changed during the build makes the next start build again.
  const stamp = sourceStamp(root);
  // Until the new one is written, the tree holds no finished build: one that fails halfway is built again.
  fs.rmSync(path.join(root, STAMP_FILE), { force: true });
  const { build: buildClient } = await import('vite').catch(() => {
    throw new Error('The build is not of the sources as they are, and Vite is not installed: build where the dev dependencies are (npm ci, npm run build)');
  });
  await buildClient({ configFile: path.join(root, 'web/vite.config.ts'), logLevel: 'warn' });
  await precompress(path.join(root, 'web/dist'));
  fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const server = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'server/tsconfig.build.json')], { stdio: 'inherit' });
  if (server.status !== 0) throw new Error('The server did not build');
  fs.writeFileSync(path.join(root, STAMP_FILE), stamp);
}

if (process.argv.includes('--if-stale') && isBuilt(root)) process.exit(0);
console.log('Building the web client and the server');
await build();
