import fs from 'node:fs';
import path from 'node:path';
import type { LibraryLoad, LibraryStatus } from '../../../../contract/health.ts';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import type { Job } from '../../job.ts';
import { AppError } from '../../errors.ts';
import type { BookText } from '../book-text/book-text.ts';
import { CALIBRE_FULL_TEXT_DB } from '../book-text/calibre-text.ts';
import type { BooksService } from '../books.service.ts';
import type { CatalogueLoads } from '../catalogue-loads.ts';
import { isBusy, withMetadataDbSnapshot } from './library.snapshot.ts';

export const METADATA_DB = 'metadata.db';

/**
 * Calibre writes `metadata.db` in several steps (its journal appears, the file changes, the journal
 * goes), and an edit in Calibre's window is often followed by another: a load starts once the
 * folder has been quiet this long.
 */
export const LIBRARY_DEBOUNCE_MS = 1000;

/** Tries in a row that find the library locked by Calibre before one counts as a failed load. */
const BUSY_TRIES = 10;

export type LibraryWatcherOptions = {
  /** The library folder, the one holding `metadata.db`. */
  folder: string;
  books: Pick<BooksService, 'loadLibrary'>;
  /** An upload running when the library changes: the library's load waits for it, then goes. */
  loads: Pick<CatalogueLoads, 'whenIdle'>;
  tmpDir: string;
  clock: Clock;
  log: Logger;
  debounceMs?: number;
  /** The books' text, read again whenever Calibre's full-text database changes (decision 0039). */
  bookText?: Pick<BookText, 'update' | 'changed' | 'stop'>;
};

/**
 * The catalogue follows a Calibre library folder (`CALIBRE_LIBRARY`): loaded from its
 * `metadata.db` when the job starts and again whenever the file changes. Each load is a `replace`
 * in one transaction, so searches answer from the old catalogue until it commits, and a load that
 * fails leaves it as it was. One load at a time; a change during a load causes one more load after it.
 */
export function createLibraryWatcher({ folder, books, loads, tmpDir, clock, log, debounceMs = LIBRARY_DEBOUNCE_MS, bookText }: LibraryWatcherOptions) {
  const metadataDb = path.join(folder, METADATA_DB);
  let watcher: fs.FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let busyTries = 0;
  const status: LibraryStatus = { loading: false, last_load: null, last_success_at: null };

  function schedule() {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, debounceMs);
  }

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    status.loading = true;
    running = loadOnce().finally(() => {
      running = undefined;
      status.loading = false;
      if (again) {
        again = false;
        schedule();
      }
    });
  }

  function finished(load: Omit<LibraryLoad, 'at'>) {
    status.last_load = { ...load, at: new Date(clock.now()).toISOString() };
    if (load.status === 'ok') status.last_success_at = status.last_load.at;
  }

  async function loadOnce() {
    const started = performance.now();
    try {
      const reply = await withMetadataDbSnapshot(metadataDb, tmpDir, (copy) => books.loadLibrary(copy));
      busyTries = 0;
      const count = reply.total_count - reply.error_count;
      finished({ status: 'ok', count, error_count: reply.error_count, error: null });
      log.info(
        { books: count, refused: reply.error_count, ms: Math.round(performance.now() - started), library: folder },
        'Calibre library loaded',
      );
    } catch (error) {
      // Another load runs (an upload, or a load on another instance): this one goes after it.
      if (error instanceof AppError && error.statusCode === 409) {
        log.info({ library: folder }, 'Calibre library changed during another catalogue load; loading it afterwards');
        await loads.whenIdle();
        again = true;
        return;
      }
      // Calibre is writing: not a failure yet, the library is read again once it is done.
      if (isBusy(error) && ++busyTries < BUSY_TRIES) {
        log.warn({ library: folder, tries: busyTries }, 'Calibre library is busy; reading it again shortly');
        again = true;
        return;
      }
      busyTries = 0;
      const message = error instanceof Error ? error.message : String(error);
      finished({ status: 'failed', count: 0, error_count: 0, error: message });
      log.error({ err: error, library: folder }, 'Calibre library load failed; the catalogue is unchanged');
    }
  }

  const job: Job = {
    name: 'Calibre library watcher',
    start() {
      // The folder, not the file: Calibre may replace metadata.db (a restore, a compaction), which
      // a watch on the file itself would not survive.
      watcher = fs.watch(folder, (_event, name) => {
        if (name === null || name.startsWith(METADATA_DB)) schedule();
        if (name === null || name.startsWith(CALIBRE_FULL_TEXT_DB)) bookText?.changed();
      });
      watcher.on('error', (error) => log.error({ err: error, library: folder }, 'watching the Calibre library failed'));
      run();
      void bookText?.update();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      watcher?.close();
      await Promise.all([running, bookText?.stop()]);
    },
  };
  return { ...job, status: (): LibraryStatus => structuredClone(status) };
}
export type LibraryWatcher = ReturnType<typeof createLibraryWatcher>;
