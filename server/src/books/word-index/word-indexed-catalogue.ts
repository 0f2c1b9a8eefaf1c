import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { fromRow } from '../book-row.ts';
import type { SearchIndexStatus } from '../../../../contract/health.ts';
import { moduleBeside } from '../../server-files.ts';
import type { Catalogue, CatalogueQuery } from '../books.search.ts';
import type { CatalogueIndexData } from './catalogue-index.ts';
import type { IndexSourceOptions } from './index-sources.ts';
import type { AnswerAs, BuildReply, SearchReply, SearchRequest } from './index-messages.ts';

export type WordIndexOptions = {
  source: IndexSourceOptions;
  /** Build the index now (a server) rather than at the first search (tests and commands). */
  eager?: boolean;
  /**
   * Searches wait for an index of the current catalogue rather than being answered by the
   * database's own engine while it is built: the tests, so that every search runs on it.
   */
  waitForIndex?: boolean;
  /** The searching threads: one a core, so that concurrent searches use them all. */
  threads?: number;
  /**
   * A searching thread with nothing to answer for this long ends, with its heap and its kept term
   * sets (about 70 MB each at a million books); the next search starts it again.
   */
  idleMs?: number;
};

export type WordIndexedCatalogue = Catalogue & {
  indexStatus(): SearchIndexStatus;
  /** The searching threads running now. */
  searchingThreads(): number;
};

type Built = { version: string; index: CatalogueIndexData };

/**
 * The young generation of the building thread, as the main thread's (two 16 MB semi-spaces;
 * worker-heaps.ts): left to V8 on a machine of 24 GB, it would grow to 128 MB a thread. A
 * searching thread makes little garbage a search (a page of rows; its bit sets are reused): 8 MB
 * gives it 8 MB of new space where 24 gave 16, and under a load of searches at a million books the
 * server held 395 MB where it held 420, at as many searches a second (docs/decisions.md, "The
 * searching threads' young generation").
 */
const BUILDING_YOUNG_GENERATION = { maxYoungGenerationSizeMb: 48 };
const SEARCHING_YOUNG_GENERATION = { maxYoungGenerationSizeMb: 8 };
type Searcher = {
  worker: Worker;
  waiting: Map<number, { resolve(reply: SearchReply): void; reject(error: Error): void }>;
  /** Set while nothing is waiting: ends the thread unless a search comes first. */
  retiring?: NodeJS.Timeout;
};

/**
 * The catalogue with its searches answered by the word index (catalogue-index.ts), on either
 * database. A thread builds the index and ends; the searching threads, up to one a core, share the
 * one copy of it and take each search in turn, and end after a minute without one. While it is
 * built (at start, after a load) the database's own engine answers, with the same results
 * (search-against-scan.test.ts).
 */
export function withWordIndex(
  inner: Catalogue,
  { source, eager = false, waitForIndex = false, threads = os.availableParallelism(), idleMs = 60_000 }: WordIndexOptions,
): WordIndexedCatalogue {
  let status: SearchIndexStatus = { state: 'idle' };
  let current: Built | undefined;
  let building: Promise<void> | undefined;
  let builder: Worker | undefined;
  // Counts the catalogue's changes: a build that began before the last one is built again.
  let changes = 0;
  let searchers: Searcher[] = [];
  let nextId = 0;
  let closed = false;

  const buildOnce = () =>
    new Promise<Built>((resolve, reject) => {
      const worker = new Worker(moduleBeside(import.meta.url, './index-build-worker'), { workerData: { source }, resourceLimits: BUILDING_YOUNG_GENERATION });
      builder = worker;
      worker.once('message', (reply: BuildReply) => {
        if (reply.type === 'built') resolve({ version: reply.version, index: reply.index });
        else reject(new Error(reply.message));
      });
      worker.once('error', reject);
      worker.once('exit', () => {
        if (builder === worker) builder = undefined;
        reject(new Error('The word index was not built'));
      });
      worker.unref();
    });

  const forget = (searcher: Searcher) => {
    clearTimeout(searcher.retiring);
    searchers = searchers.filter((other) => other !== searcher);
  };

  const rest = (searcher: Searcher) => {
    clearTimeout(searcher.retiring);
    searcher.retiring = setTimeout(() => {
      forget(searcher);
      void searcher.worker.terminate();
    }, idleMs).unref();
  };

  const startSearcher = (): Searcher => {
    const worker = new Worker(moduleBeside(import.meta.url, './index-worker'), { workerData: { source }, resourceLimits: SEARCHING_YOUNG_GENERATION });
    const searcher: Searcher = { worker, waiting: new Map() };
    worker.on('message', (reply: SearchReply) => {
      const waiting = searcher.waiting.get(reply.id);
      searcher.waiting.delete(reply.id);
      if (searcher.waiting.size === 0) rest(searcher);
      waiting?.resolve(reply);
    });
    worker.on('error', (error) => {
      for (const waiting of searcher.waiting.values()) waiting.reject(error);
      forget(searcher);
    });
    worker.unref();
    return searcher;
  };

  const sendIndex = (worker: Worker, { version, index }: Built) => worker.postMessage({ type: 'use', version, index } satisfies SearchRequest);

  /**
   * The thread with fewest searches waiting; a new one (up to `threads`) when every running one
   * has some. So one person's searches keep one thread, and a thread that ended, idle or with an
   * error, starts again only when it is needed.
   */
  const searcherFor = () => {
    const least = searchers.reduce<Searcher | undefined>((best, other) => (!best || other.waiting.size < best.waiting.size ? other : best), undefined);
    if (least && (least.waiting.size === 0 || searchers.length >= threads)) return least;
    const searcher = startSearcher();
    if (current) sendIndex(searcher.worker, current);
    searchers.push(searcher);
    return searcher;
  };

  const use = (built: Built) => {
    current = built;
    status = { state: 'ready', books: built.index.books };
    // The searching threads start with the first search and end when searches stop: a server
    // nobody searches keeps none.
    for (const { worker } of searchers) sendIndex(worker, built);
  };

  const build = (): Promise<void> => {
    building ??= (async () => {
      status = { state: 'building' };
      for (;;) {
        const at = changes;
        const built = await buildOnce();
        if (closed) return;
        if (at === changes) return use(built);
      }
    })()
      .catch((error: unknown) => {
        status = { state: 'failed' };
        throw error;
      })
      .finally(() => {
        building = undefined;
      });
    return building;
  };

  /** The catalogue has changed: its index is built again (searches meanwhile go to the database). */
  const outdated = () => {
    changes += 1;
    current = undefined;
    // The old index's memory goes once no thread holds it, rather than beside the new one.
    for (const { worker } of searchers) worker.postMessage({ type: 'drop' } satisfies SearchRequest);
    void build().catch(() => {});
  };

  const ask = (query: Omit<CatalogueQuery, 'identifier' | 'comments'>, identifier: string, comments: boolean, as: keyof AnswerAs) => {
    const searcher = searcherFor();
    clearTimeout(searcher.retiring);
    return new Promise<SearchReply>((resolve, reject) => {
      const id = nextId++;
      searcher.waiting.set(id, { resolve, reject });
      searcher.worker.postMessage({ type: 'search', id, query, identifier, comments, as } satisfies SearchRequest);
    });
  };

  /** A search answered by the index, in the form asked, or by the database's engine while there is none. */
  const answered = async <As extends keyof AnswerAs, T>(
    query: CatalogueQuery,
    as: As,
    byEngine: (query: CatalogueQuery) => Promise<T>,
    fromAnswer: (answer: AnswerAs[As]) => T,
  ): Promise<T> => {
    // Listing by last update reads one index of the database; only words need the word index.
    if (query.terms.length === 0) return byEngine(query);
    for (;;) {
      if (!current) {
        const built = build();
        if (!waitForIndex) {
          built.catch(() => {});
          return byEngine(query);
        }
        await built;
        continue;
      }
      const { identifier, comments, ...rest } = query;
      const reply = await ask(rest, identifier, comments, as);
      if (reply.type === 'failed') throw new Error(reply.message);
      // The thread answers in the form it was asked.
      if (reply.type === 'answer') return fromAnswer(reply.answer as AnswerAs[As]);
      // Another server's load (PostgreSQL) changed the catalogue under the index.
      if (current?.version === reply.version) outdated();
      if (!waitForIndex) return byEngine(query);
    }
  };

  if (eager) void build().catch(() => {});

  return {
    ...inner,

    search: (query) => answered(query, 'rows', inner.search, ({ total, rows }) => ({ total, books: rows.map(fromRow) })),

    searchPage: (query) => answered(query, 'page', inner.searchPage, (answer) => answer),

    indexStatus: () => status,

    searchingThreads: () => searchers.length,

    async load(mode, load) {
      const result = await inner.load(mode, load);
      if (status.state !== 'idle') outdated();
      return result;
    },

    async close() {
      closed = true;
      const stopped = new Error('The catalogue is closed');
      const stopping = searchers;
      for (const searcher of stopping) {
        forget(searcher);
        for (const pending of searcher.waiting.values()) pending.reject(stopped);
      }
      await Promise.all([builder?.terminate(), ...stopping.map(({ worker }) => worker.terminate())]);
      current = undefined;
      await inner.close();
    },
  };
}
