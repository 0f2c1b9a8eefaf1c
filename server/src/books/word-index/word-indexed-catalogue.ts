import { Worker } from 'node:worker_threads';
import { fromRow } from '../book-row.ts';
import type { SearchIndexStatus } from '../../../../contract/health.ts';
import type { Catalogue, CatalogueQuery } from '../books.search.ts';
import type { IndexSourceOptions } from './index-sources.ts';
import type { IndexReply, IndexRequest } from './index-messages.ts';

export type WordIndexOptions = {
  source: IndexSourceOptions;
  /** Build the index now (a server) rather than at the first search (tests and commands). */
  eager?: boolean;
  /**
   * Searches wait for an index of the current catalogue rather than being answered by the
   * database's own engine while it is built: the tests, so that every search runs on the index.
   */
  waitForIndex?: boolean;
};

/** A request before it is given its id. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Pending = { resolve(reply: IndexReply): void; reject(error: Error): void };

/**
 * The catalogue with its searches answered by the word index (catalogue-index.ts) in a thread of
 * its own, on either database. While the index is being built (at start, after a load) the
 * database's own engine answers, with the same results (search-against-scan.test.ts).
 */
export function withWordIndex(inner: Catalogue, { source, eager = false, waitForIndex = false }: WordIndexOptions): Catalogue {
  let worker: Worker | undefined;
  let status: SearchIndexStatus = { state: 'idle' };
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const start = () => {
    if (worker) return worker;
    const started = new Worker(new URL('./index-worker.ts', import.meta.url), { workerData: { source } });
    started.on('message', (reply: IndexReply) => {
      if (reply.type === 'building') status = { state: 'building' };
      else if (reply.type === 'build-failed') status = { state: 'failed' };
      else if (reply.type === 'built') status = { state: 'ready', books: reply.books };
      else {
        const waiting = pending.get(reply.id);
        pending.delete(reply.id);
        waiting?.resolve(reply);
      }
    });
    started.on('error', (error) => {
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
      worker = undefined;
      status = { state: 'failed' };
    });
    started.unref();
    worker = started;
    return started;
  };

  const ask = (request: WithoutId<IndexRequest>) =>
    new Promise<IndexReply>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      start().postMessage({ ...request, id });
    });

  if (eager) start();

  const indexed = async (query: CatalogueQuery) => {
    const { identifier, ...rest } = query;
    const reply = await ask({ type: 'search', query: rest, identifier, wait: waitForIndex });
    if (reply.type === 'failed') throw new Error(reply.message);
    if (reply.type !== 'answer' || reply.answer === 'unavailable') return undefined;
    return { total: reply.answer.total, books: reply.answer.rows.map(fromRow) };
  };

  return {
    ...inner,

    async search(query) {
      // Listing by last update reads one index of the database; only words need the word index.
      if (query.terms.length === 0) return inner.search(query);
      if (status.state !== 'ready' && !waitForIndex) {
        start();
        return inner.search(query);
      }
      return (await indexed(query)) ?? inner.search(query);
    },

    indexStatus: () => status,

    async load(mode, load) {
      const result = await inner.load(mode, load);
      if (worker) void ask({ type: 'refresh' }).catch(() => {});
      return result;
    },

    async close() {
      for (const waiting of pending.values()) waiting.reject(new Error('The catalogue is closed'));
      pending.clear();
      await worker?.terminate();
      worker = undefined;
      await inner.close();
    },
  };
}
