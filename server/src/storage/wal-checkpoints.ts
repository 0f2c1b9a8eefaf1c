import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { type Kysely, sql } from 'kysely';
import type { Logger } from '../logger.ts';
import { moduleBeside } from '../server-files.ts';
import type { Database } from './schema.ts';

/** How often the log is copied into the database file; an import writes a few MB of log a second. */
const CHECKPOINT_EVERY_MS = 500;
/** SQLite's own threshold, in pages, for the connection that commits past it. */
const SQLITE_AUTOCHECKPOINT = 1000;
/**
 * Nothing written for this long, and the thread ends: a server at rest then keeps no thread (its
 * heap and isolate, 10 MB). The next write starts it again within `CHECKPOINT_EVERY_MS`.
 */
const IDLE_MS = 30_000;

const autocheckpoint = (db: Kysely<Database>, pages: number) => sql.raw(`PRAGMA wal_autocheckpoint = ${pages}`).execute(db);

/** When the log was last written, by any connection: a commit appends to it. */
const writtenAt = (log: string) => fs.statSync(log, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/**
 * SQLite copies its write-ahead log into the database file (a checkpoint) on the connection whose
 * commit takes the log past 1,000 pages, and with `synchronous = NORMAL` that is the one write
 * that waits for the disk: on the server's connection, the event loop's. During a bookmark import
 * a checkpoint took a median 63 ms, up to 140, with another process keeping a core busy. A thread
 * of its own takes that work, and the server's connection no longer checkpoints.
 *
 * The thread runs while the database is written: the log's time of change is looked at every
 * turn, and the thread starts when it moves and ends once it has not moved for `idleMs`. Should the
 * thread fail, the connection checkpoints again.
 */
export async function checkpointInBackground(
  db: Kysely<Database>,
  file: string,
  log: Pick<Logger, 'warn'>,
  { idleMs = IDLE_MS }: { idleMs?: number } = {},
) {
  const walFile = `${file}-wal`;
  let running: { worker: Worker; end(): Promise<void> } | undefined;
  let ending: Promise<void> | undefined;
  let stopped = false;
  let lastWrite = Date.now();
  let seen = writtenAt(walFile);

  const fallBack = async () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    log.warn('the checkpointing thread stopped; the database connection checkpoints again');
    await autocheckpoint(db, SQLITE_AUTOCHECKPOINT).catch((error: unknown) => log.warn({ err: error }, 'the connection could not checkpoint again'));
  };

  /** Starts the thread; resolves once it has its connection, false when it could not open it. */
  const start = (): Promise<boolean> => {
    const worker = new Worker(moduleBeside(import.meta.url, './wal-checkpoint-worker'), {
      workerData: { file, everyMs: CHECKPOINT_EVERY_MS },
      // It holds one connection and one statement.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 24 },
    });
    let asked = false;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    running = {
      worker,
      end() {
        asked = true;
        worker.postMessage('stop');
        return exited;
      },
    };
    worker.on('error', (error) => log.warn({ err: error }, 'the checkpointing thread failed'));
    // Once started it keeps nothing alive: a server that ends ends it.
    worker.unref();
    void exited.then(() => {
      if (running?.worker === worker) running = undefined;
      if (!asked) void fallBack();
    });
    return new Promise<boolean>((resolve) => {
      worker.once('message', () => resolve(true));
      void exited.then(() => resolve(false));
    });
  };

  const timer = setInterval(() => {
    const written = writtenAt(walFile);
    if (written !== seen) {
      seen = written;
      lastWrite = Date.now();
      if (!running) void start();
    } else if (running && !ending && Date.now() - lastWrite > idleMs) {
      ending = running.end().finally(() => (ending = undefined));
    }
  }, CHECKPOINT_EVERY_MS);
  timer.unref();

  if (!(await start())) throw new Error('The checkpointing thread did not start');
  await autocheckpoint(db, 0);
  return {
    /** The thread running now, if any. */
    thread: () => running?.worker,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await ending;
      await running?.end();
    },
  };
}
