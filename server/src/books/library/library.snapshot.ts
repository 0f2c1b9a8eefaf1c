import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';

/** How long a read waits for Calibre's write to end before it is tried again later. */
const BUSY_TIMEOUT_MS = 2000;

/** SQLite's "database is locked" (SQLITE_BUSY) and "database table is locked" (SQLITE_LOCKED). */
export const isBusy = (error: unknown) =>
  error instanceof Error && 'errcode' in error && (error.errcode === 5 || error.errcode === 6);

/**
 * A consistent copy of the library's `metadata.db`, taken through SQLite's backup API on a
 * read-only connection, in `tmpDir`; `use` reads it and the copy is removed afterwards. Calibre
 * may be writing meanwhile: the copy holds SQLite's shared lock only while it copies (milliseconds
 * for a library of thousands of books), not while the catalogue loads, so Calibre is never kept
 * waiting by a long load, and the load reads one committed state of the library.
 */
export async function withMetadataDbSnapshot<T>(metadataDb: string, tmpDir: string, use: (copy: string) => Promise<T>): Promise<T> {
  fs.mkdirSync(tmpDir, { recursive: true });
  const copy = path.join(tmpDir, `library-${randomUUID()}.db`);
  try {
    const source = new DatabaseSync(metadataDb, { readOnly: true, timeout: BUSY_TIMEOUT_MS });
    try {
      await backup(source, copy);
    } finally {
      source.close();
    }
    return await use(copy);
  } finally {
    fs.rmSync(copy, { force: true });
  }
}
