import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * What the build reads: the server's and the client's sources, the contract they share, their
 * configurations, the build itself and the locked dependencies. Tests and their fixtures are not
 * built.
 */
const SOURCES = [
  'scripts/build.ts',
  'scripts/build-stamp.ts',
  'scripts/precompress.ts',
  'server/src',
  'server/tsconfig.json',
  'server/tsconfig.build.json',
  'contract',
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/tsconfig.json',
  'tsconfig.base.json',
  'package-lock.json',
];

/** What a finished build leaves: the server's entry and the client's page. */
const OUTPUTS = ['dist/server/src/main.js', 'web/dist/index.html'];

/** Written last by a build: the stamp of the sources it was built from. */
export const STAMP_FILE = 'dist/build-stamp';

const isTest = (relative: string) => /\.test\.tsx?$/.test(relative) || relative.split('/').some((part) => part === 'test' || part === 'fixtures');

function sourceFiles(root: string): string[] {
  return SOURCES.flatMap((source) => {
    const full = path.join(root, source);
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    if (!stat) return [];
    if (stat.isFile()) return [source];
    return fs
      .readdirSync(full, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  })
    .filter((file) => !isTest(file))
    .sort();
}

/** A hash of the sources' names and contents: it changes when a file the build reads is changed, added or removed. */
export function sourceStamp(root: string): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles(root)) hash.update(`${file}\0`).update(fs.readFileSync(path.join(root, file))).update('\0');
  return hash.digest('hex');
}

/** Whether the tree holds a build of its sources as they are. */
export function isBuilt(root: string): boolean {
  if (![...OUTPUTS, STAMP_FILE].every((file) => fs.existsSync(path.join(root, file)))) return false;
  return fs.readFileSync(path.join(root, STAMP_FILE), 'utf8') === sourceStamp(root);
}
