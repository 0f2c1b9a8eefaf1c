import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { CatalogueLoad, IndexUploadReply } from '../../../contract/books.ts';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { LoadSharing } from './catalogue-load-sharing.ts';

/** Progress is told at most this often (and at every change of phase), so a fast load does not flood its watchers. */
export const PROGRESS_EVERY_MS = 250;
/** Loads remembered after they end, for a later `GET /api/books/index/{id}`. */
const FINISHED_KEPT = 20;
/**
 * The estimate waits for this much of the file: the reader runs ahead of the records by what the
 * streams and the parser buffer (some hundreds of KB), which skews it early on.
 */
const ESTIMATE_AFTER_BYTES = 1024 * 1024;
const ESTIMATE_AFTER_SHARE = 0.05;

const ENDED = new Set<CatalogueLoad['phase']>(['done', 'failed', 'cancelled']);
export const isRunning = (load: CatalogueLoad) => !ENDED.has(load.phase);

export const CANCELLED_MESSAGE = 'Cancelled: the catalogue is as it was before the load';

/** Thrown inside a load that was cancelled: the catalogue's transaction rolls back on it. */
export class LoadCancelled extends AppError {
  constructor() {
    super(409, CANCELLED_MESSAGE);
  }
}

/**
 * One running load, as the importer tells it. Its counts are the importer's own; `signal` aborts
 * when someone cancels the load, and the importer stops at its next record.
 */
export type LoadTracker = {
  readonly id: string;
  readonly signal: AbortSignal;
  received(bytes: number): void;
  /** The file's bytes taken by the reader so far, of `size`: what "about N records" is estimated from. */
  readFrom(bytesRead: number, size: number): void;
  /** Known before reading (a library database's count of books). */
  expect(total: number | null): void;
  phase(phase: 'reading' | 'writing'): void;
  record(isBook: boolean): void;
  wrote(): void;
  /** Resolves once the right to load is given back, so that the next load may begin at once. */
  done(reply: IndexUploadReply): Promise<void>;
  /** Ends the load as cancelled when it was, else as failed with the error's message. */
  ended(error: unknown): Promise<void>;
};

/**
 * The catalogue's loads, in this process: the running one's progress, the last few that ended,
 * and one load at a time. `sharing` makes the rule hold across server instances (PostgreSQL) and
 * carries the progress to them.
 */
export function createCatalogueLoads({ clock, sharing }: { clock: Clock; sharing: LoadSharing }) {
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  const loads = new Map<string, CatalogueLoad>();
  const cancels = new Map<string, AbortController>();
  let running: CatalogueLoad | null = null;
  /** Another instance's load, as its broadcasts told it. */
  let remote: CatalogueLoad | null = null;
  let idle = Promise.resolve();
  let becameIdle = () => {};

  sharing.subscribe((load) => {
    remote = isRunning(load) ? load : null;
    remember(load);
    changes.emit('change', load);
  });
  sharing.onCancelAsked((id) => cancels.get(id)?.abort(new LoadCancelled()));

  function remember(load: CatalogueLoad) {
    loads.delete(load.id);
    loads.set(load.id, load);
    if (loads.size > FINISHED_KEPT) {
      const oldest = [...loads.values()].find((kept) => !isRunning(kept));
      if (oldest) loads.delete(oldest.id);
    }
  }

  const busy = (load: CatalogueLoad | null) =>
    new AppError(409, 'A catalogue load is running; try again once it has finished', {}, { load });

  async function begin(kind: CatalogueLoad['kind'], mode: CatalogueLoad['mode'], totalBytes: number | null): Promise<LoadTracker> {
    if (running) throw busy(running);
    const release = await sharing.acquire();
    if (!release) throw busy(remote);
    if (running) {
      await release();
      throw busy(running);
    }
    const load: CatalogueLoad = {
      id: randomUUID(),
      kind,
      mode,
      phase: kind === 'upload' ? 'receiving' : 'reading',
      read: 0,
      written: 0,
      errors: 0,
      bytes: 0,
      total_bytes: totalBytes,
      estimated_total: null,
      started_at: new Date(clock.now()).toISOString(),
      finished_at: null,
      message: null,
    };
    const cancel = new AbortController();
    running = load;
    cancels.set(load.id, cancel);
    remember(load);
    idle = new Promise((resolve) => {
      becameIdle = resolve;
    });
    // Throttling is not the app's time (the clock), but the machine's: a test's clock stands still.
    let toldAt = 0;
    let pending: NodeJS.Timeout | undefined;
    const tell = () => {
      clearTimeout(pending);
      pending = undefined;
      toldAt = performance.now();
      const snapshot = { ...load };
      remember(snapshot);
      changes.emit('change', snapshot);
      void sharing.publish(snapshot);
    };
    const soon = () => {
      if (pending) return;
      const wait = toldAt + PROGRESS_EVERY_MS - performance.now();
      if (wait <= 0) tell();
      else pending = setTimeout(tell, wait);
    };
    let ending = false;
    // The load shows as ended only once its lock is let go: a client that sees it ended may at
    // once begin the next load, which must not find this one still holding the lock.
    const end = async (phase: 'done' | 'failed' | 'cancelled', message: string | null) => {
      if (ending) return;
      ending = true;
      cancels.delete(load.id);
      try {
        await release();
      } finally {
        Object.assign(load, { phase, message, finished_at: new Date(clock.now()).toISOString() });
        running = null;
        tell();
        becameIdle();
      }
    };
    tell();

    return {
      id: load.id,
      signal: cancel.signal,
      received(bytes) {
        load.bytes += bytes;
        soon();
      },
      readFrom(bytesRead, size) {
        if (bytesRead >= Math.max(ESTIMATE_AFTER_BYTES, size * ESTIMATE_AFTER_SHARE) && load.read > 0) {
          load.estimated_total = Math.round((load.read * size) / bytesRead);
        }
      },
      expect(total) {
        load.estimated_total = total;
      },
      phase(phase) {
        load.phase = phase;
        tell();
      },
      record(isBook) {
        load.read++;
        if (!isBook) load.errors++;
        soon();
      },
      wrote() {
        load.written++;
      },
      done(reply) {
        load.estimated_total = reply.total_count;
        return end('done', null);
      },
      ended(error) {
        if (cancel.signal.aborted || error instanceof LoadCancelled) return end('cancelled', CANCELLED_MESSAGE);
        return end('failed', error instanceof Error ? error.message : String(error));
      },
    };
  }

  return {
    begin,
    /** The running load (here or on another instance), else the last one this instance saw. */
    current(): CatalogueLoad | null {
      if (running) return { ...running };
      if (remote) return remote;
      return [...loads.values()].at(-1) ?? null;
    },
    get(id: string): CatalogueLoad | undefined {
      return id === running?.id ? { ...running } : loads.get(id);
    },
    /** Cancels the load, here or on the instance that runs it; false when it is not running. */
    async cancel(id: string): Promise<boolean> {
      const cancel = cancels.get(id);
      if (cancel) {
        cancel.abort(new LoadCancelled());
        return true;
      }
      if (remote?.id !== id) return false;
      await sharing.askCancel(id);
      return true;
    },
    /** Resolves once no load runs in this process. */
    whenIdle: () => idle,
    watch(listener: (load: CatalogueLoad) => void): () => void {
      changes.on('change', listener);
      return () => void changes.off('change', listener);
    },
    close: () => sharing.close(),
  };
}
export type CatalogueLoads = ReturnType<typeof createCatalogueLoads>;
