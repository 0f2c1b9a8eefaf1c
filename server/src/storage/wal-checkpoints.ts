import { Worker } from 'node:worker_threads';
import { type Kysely, sql } from 'kysely';
import type { Logger } from '../logger.ts';
import { moduleBeside } from '../server-files.ts';
import type { Database } from './schema.ts';

/** How often the log is copied into the database file; an import writes a few MB of log a second. */
const CHECKPOINT_EVERY_MS = 500;
/** SQLite's own threshold, in pages, for the connection that commits past it. */
const SQLITE_AUTOCHECKPOINT = 1000;

const autocheckpoint = (db: Kysely<Database>, pages: number) => sql.raw(`PRAGMA wal_autocheckpoint = ${pages}`).execute(db);

/**
 * SQLite copies its write-ahead log into the database file (a checkpoint) on the connection whose
 * commit takes the log past 1,000 pages, and with `synchronous = NORMAL` that is the one write
 * that waits for the disk: on the server's connection, the event loop's, and on whichever request
 * came then; during a bookmark import that wait was the longest the event loop held. A thread
 * of its own takes that work, and the server's connection no longer checkpoints. Should the thread
 * stop, the connection checkpoints again.
 */
export async function checkpointInBackground(db: Kysely<Database>, file: string, log: Pick<Logger, 'warn'>) {
  const thread = new Worker(moduleBeside(import.meta.url, './wal-checkpoint-worker'), {
    workerData: { file, everyMs: CHECKPOINT_EVERY_MS },
  });
  let stopping = false;
  thread.on('error', (error) => log.warn({ err: error }, 'the checkpointing thread failed'));
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  const ready = new Promise<boolean>((resolve) => {
    thread.once('message', () => resolve(true));
    void exited.then(() => resolve(false));
  });
  if (!(await ready)) throw new Error('The checkpointing thread did not start');
  // Once started it keeps nothing alive: a server that ends ends it.
  thread.unref();
  await autocheckpoint(db, 0);
  void exited.then(async () => {
    if (stopping) return;
    log.warn('the checkpointing thread stopped; the database connection checkpoints again');
    await autocheckpoint(db, SQLITE_AUTOCHECKPOINT).catch((error: unknown) => log.warn({ err: error }, 'the connection could not checkpoint again'));
  });
  return {
    thread,
    async stop() {
      stopping = true;
      thread.postMessage('stop');
      await exited;
    },
  };
}
