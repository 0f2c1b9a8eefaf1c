import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logger.ts';
import { moduleBeside } from '../../server-files.ts';
import type { BookTextUpdateOptions, BookTextUpdateReply } from './book-text-update-worker.ts';
import { CALIBRE_FULL_TEXT_DB } from './calibre-text.ts';

/** Calibre writes its full-text database book after book while it indexes: an update starts once it has been quiet this long. */
export const BOOK_TEXT_DEBOUNCE_MS = 2000;

export type BookTextOptions = {
  /** The Calibre library folder, the one holding `metadata.db` and `full-text-search.db`. */
  libraryFolder: string;
  /** The file of the books' text that the searching threads read (book-text-file.ts). */
  file: string;
  log: Logger;
  debounceMs?: number;
};

/**
 * The books' text, kept up to date with the Calibre library's full-text database (decision 0039):
 * read when the library is first followed and again whenever Calibre's database changes, each
 * update on a thread of its own, so that the server answers meanwhile, from the text before.
 */
export function createBookText({ libraryFolder, file, log, debounceMs = BOOK_TEXT_DEBOUNCE_MS }: BookTextOptions) {
  const calibreDb = path.join(libraryFolder, CALIBRE_FULL_TEXT_DB);
  // The text read at the last start answers until the first update: the library's database is still there.
  let searchable = fs.existsSync(file) && fs.existsSync(calibreDb);
  let version = 0;
  let running: Promise<void> | undefined;
  let again: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let worker: Worker | undefined;
  let stopped = false;

  const updateOnce = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const thread = new Worker(moduleBeside(import.meta.url, './book-text-update-worker'), {
        workerData: { calibreDb, file } satisfies BookTextUpdateOptions,
      });
      worker = thread;
      let reply: BookTextUpdateReply | undefined;
      thread.once('message', (message: BookTextUpdateReply) => (reply = message));
      thread.once('error', (error) => (reply = { type: 'failed', message: error.message }));
      thread.once('exit', () => {
        worker = undefined;
        if (reply?.type === 'updated') {
          searchable = fs.existsSync(calibreDb);
          if (reply.changed > 0) version += 1;
          log.info({ books: reply.books, changed: reply.changed, ms: Math.round(performance.now() - started), library: libraryFolder }, "Calibre's book text read");
        } else if (!stopped) {
          log.error({ error: reply?.message ?? 'stopped', library: libraryFolder }, "reading Calibre's book text failed; the text before is searched");
        }
        resolve();
      });
    });

  /** One update at a time: a call during one runs one more after it, shared by every call meanwhile. */
  const update = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    // A library whose text calibre has never indexed costs no thread and no file.
    if (!running && !fs.existsSync(calibreDb) && !fs.existsSync(file)) {
      searchable = false;
      return Promise.resolve();
    }
    if (!running) {
      running = updateOnce().finally(() => {
        running = undefined;
      });
      return running;
    }
    again ??= running.then(() => {
      again = undefined;
      return update();
    });
    return again;
  };

  return {
    /** Whether the books' text is searched: the library has Calibre's full-text database, and its text has been read. */
    searchable: () => searchable,
    /** Changes whenever the searched text does: a reply kept for a search of the text is stale then. */
    version: () => version,
    update,
    /** Calibre's database changed: an update once it has been quiet for a while. */
    changed() {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(() => void update(), debounceMs);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await worker?.terminate();
      await running;
    },
  };
}
export type BookText = ReturnType<typeof createBookText>;
