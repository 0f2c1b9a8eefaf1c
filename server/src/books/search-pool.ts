import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { moduleBeside } from '../server-files.ts';
import type { SearchAnswer, SearchPlan } from './search-plan.ts';

type Reply = { id: number; result?: SearchAnswer; error?: string };
type Pending = { resolve(result: SearchAnswer): void; reject(error: Error): void };

export type SearchPoolOptions = {
  size?: number;
  /**
   * A worker left idle this long ends, with its connection's page cache: once the word index is
   * built it answers every search, and the next rebuild starts workers again.
   */
  idleMs?: number;
};

/**
 * SQLite runs a query synchronously: a search on the main thread would stop every other request
 * while it counts a common word's matches. Searches go to worker threads instead, one per core
 * beside the main thread's (which serves HTTP and compiles the SQL), each with its own read-only
 * connection; each takes the next search when it is free.
 */
export function createSearchPool(
  file: string,
  { size = Math.max(1, Math.min(3, os.availableParallelism() - 1)), idleMs = 60_000 }: SearchPoolOptions = {},
) {
  const waiting: Array<{ plan: SearchPlan } & Pending> = [];
  const idle: Worker[] = [];
  const retiring = new Map<Worker, NodeJS.Timeout>();
  const busy = new Map<Worker, Pending & { id: number }>();
  let workers: Worker[] = [];
  let nextId = 0;
  let closed = false;

  const forget = (worker: Worker) => {
    clearTimeout(retiring.get(worker));
    retiring.delete(worker);
    if (idle.includes(worker)) idle.splice(idle.indexOf(worker), 1);
    workers = workers.filter((other) => other !== worker);
  };

  const rest = (worker: Worker) => {
    idle.push(worker);
    const timer = setTimeout(() => {
      forget(worker);
      void worker.terminate();
    }, idleMs);
    retiring.set(worker, timer.unref());
  };

  const dispatch = () => {
    while (idle.length > 0 && waiting.length > 0) {
      const worker = idle.pop()!;
      clearTimeout(retiring.get(worker));
      retiring.delete(worker);
      const { plan, ...pending } = waiting.shift()!;
      const id = nextId++;
      busy.set(worker, { id, ...pending });
      worker.postMessage({ id, plan });
    }
  };

  const start = (): Worker => {
    const worker = new Worker(moduleBeside(import.meta.url, './search-worker'), {
      workerData: { file },
      // A worker keeps little but a page of rows at a time: small heaps keep its memory small.
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
    });
    worker.on('message', (reply: Reply) => {
      const pending = busy.get(worker);
      if (!pending || pending.id !== reply.id) return;
      busy.delete(worker);
      rest(worker);
      if (reply.error !== undefined) pending.reject(new Error(reply.error));
      else pending.resolve(reply.result!);
      dispatch();
    });
    // A worker that dies (the file cannot be opened, say) fails its own search, and the waiting
    // ones when none is left; the next search starts a new one rather than looping here.
    worker.on('error', (error) => {
      busy.get(worker)?.reject(error);
      busy.delete(worker);
      forget(worker);
      if (workers.length === 0) for (const pending of waiting.splice(0)) pending.reject(error);
    });
    worker.unref();
    rest(worker);
    return worker;
  };

  const fill = () => {
    while (workers.length < size) workers.push(start());
  };

  return {
    search(plan: SearchPlan): Promise<SearchAnswer> {
      if (closed) return Promise.reject(new Error('The catalogue is closed'));
      fill();
      return new Promise((resolve, reject) => {
        waiting.push({ plan, resolve, reject });
        dispatch();
      });
    },

    async close() {
      closed = true;
      const stopped = new Error('The catalogue is closed');
      for (const pending of [...waiting.splice(0), ...busy.values()]) pending.reject(stopped);
      busy.clear();
      const stopping = workers;
      for (const worker of stopping) forget(worker);
      await Promise.all(stopping.map((worker) => worker.terminate()));
    },

    /** The workers running now. */
    running: () => workers.length,
  };
}
