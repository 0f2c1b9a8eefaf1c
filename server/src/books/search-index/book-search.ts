import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BookFacet, BrowseEntry, CatalogueBook } from '../../../../contract/books.ts';
import type { SearchIndexStatus } from '../../../../contract/health.ts';
import { AppError } from '../../errors.ts';
import { moduleBeside } from '../../server-files.ts';
import { fromRow } from '../book-row.ts';
import type { CatalogueQuery } from '../catalogue-query.ts';
import type { CatalogueIndexData } from './catalogue-index.ts';
import type { IndexSourceOptions } from './index-sources.ts';
import type { AnswerAs, BuildOptions, BuildReply, SearcherOptions, SearchReply, SearchRequest } from './index-messages.ts';

/**
 * The book search: the one engine that answers a search with words (README.md). The books service
 * reaches it through this interface alone.
 */
export interface BookSearch {
  /** The matching books' exact count and the page's books. */
  search(query: CatalogueQuery): Promise<{ total: number; books: CatalogueBook[] }>;
  /** The same, the page as the reply's JSON array (book-row.ts, `replyPageJson`), with the snippets of its books found by their text. */
  searchPage(query: CatalogueQuery): Promise<{ total: number; page: string; snippets: Record<string, string> }>;
  /** A facet's values with their counts of books, as the index counted them when it was built; waits or is refused as a search. */
  facet(facet: BookFacet): Promise<BrowseEntry[]>;
  status(): SearchIndexStatus;
  /** A load has committed: the index is built again, the one before answering meanwhile; resolves once it is. */
  changed(): Promise<void>;
  /** The searching threads running now. */
  searchingThreads(): number;
  close(): Promise<void>;
}

export type BookSearchOptions = {
  source: IndexSourceOptions;
  /** The index file, kept beside the data (`DATA_DIR`) so that a restart reads it rather than building; none: not kept. */
  file?: string;
  /** The file of the books' text (book-text/), searched for the `text` field; none: the field finds nothing. */
  textFile?: string;
  /** Read or build the index now (a server) rather than at the first search (tests and commands). */
  eager?: boolean;
  /**
   * Searches wait for an index of the current catalogue rather than being refused (no index yet)
   * or answered by the index of the catalogue before a load: the tests, so that every search is
   * answered for the catalogue they loaded.
   */
  waitForIndex?: boolean;
  /** The searching threads: one a core, so that concurrent searches use them all. */
  threads?: number;
  /**
   * A searching thread with nothing to answer for this long ends, with its heap and its kept term
   * sets; the next search starts it again.
   */
  idleMs?: number;
};

/** How long a client is asked to wait before asking again while the first index is prepared. */
const RETRY_AFTER_SECONDS = 5;

type Built = { version: string; index: CatalogueIndexData; from: 'file' | 'database' };

type Searcher = {
  worker: Worker;
  waiting: Map<number, { resolve(reply: SearchReply): void; reject(error: Error): void }>;
  /** Set while nothing is waiting: ends the thread unless a search comes first. */
  retiring?: NodeJS.Timeout;
};

/**
 * The search answered by the word index (catalogue-index.ts), on either database. A thread reads
 * the index from its file, or builds it from the database and writes the file, and ends; the
 * searching threads, up to one a core, share the one copy of it and take each search in turn, and
 * end after a minute without one. After a load, the index of the catalogue before it answers until
 * the new one is built; before the first index exists, a search is refused with a 503 that says
 * how far its preparation is.
 */
export function createBookSearch({
  source,
  file,
  textFile,
  eager = false,
  waitForIndex = false,
  threads = os.availableParallelism(),
  idleMs = 60_000,
}: BookSearchOptions): BookSearch {
  let status: SearchIndexStatus = { state: 'idle' };
  let current: Built | undefined;
  let building: Promise<void> | undefined;
  let builder: Worker | undefined;
  // A building thread that has given its index and is writing it to the file: let finish at close.
  let keeping: Promise<void> | undefined;
  // Counts the catalogue's changes: a build that began before the last one is built again.
  let changes = 0;
  let searchers: Searcher[] = [];
  let nextId = 0;
  let closed = false;

  const buildOnce = () =>
    new Promise<Built>((resolve, reject) => {
      const worker = new Worker(moduleBeside(import.meta.url, './index-build-worker'), { workerData: { source, file } satisfies BuildOptions });
      builder = worker;
      worker.on('message', (reply: BuildReply) => {
        if (reply.type === 'progress') {
          if (status.state === 'building') status = { state: 'building', progress: reply.total === 0 ? 0 : Math.floor((100 * reply.done) / reply.total) };
        } else if (reply.type === 'built') {
          if (builder === worker) builder = undefined;
          keeping = new Promise((ended) => worker.once('exit', () => ended()));
          resolve({ version: reply.builtFrom.version, index: reply.index, from: reply.from });
        }
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
    const worker = new Worker(moduleBeside(import.meta.url, './index-worker'), { workerData: { source, textFile } satisfies SearcherOptions });
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

  // The facets' counts stay here: the searching threads do not browse.
  const sendIndex = (worker: Worker, { version, index: { facets: _, ...searched } }: Built) =>
    worker.postMessage({ type: 'use', version, index: searched } satisfies SearchRequest);

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
    // The searching threads start with the first search and end when searches stop: a server
    // nobody searches keeps none. The index before goes once no thread holds it.
    for (const { worker } of searchers) sendIndex(worker, built);
  };

  const build = (): Promise<void> => {
    building ??= (async () => {
      status = { state: 'building', progress: 0 };
      for (;;) {
        const at = changes;
        const built = await buildOnce();
        if (closed) return;
        // Newer than the one answering, if not yet of the latest load: it answers while that is built.
        use(built);
        if (at === changes) {
          status = { state: 'ready', books: built.index.books, from: built.from };
          return;
        }
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

  const changed = async () => {
    changes += 1;
    if (status.state !== 'idle') await build();
  };

  const preparing = () => {
    const progress = status.state === 'building' ? (status.progress ?? 0) : 0;
    return new AppError(
      503,
      `The search is being prepared (${progress} %): it answers once the index of the catalogue is built`,
      { 'retry-after': String(RETRY_AFTER_SECONDS) },
      { progress },
    );
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

  /** A search answered by the index, in the form asked; refused while there is none. */
  const answered = async <As extends keyof AnswerAs, T>(query: CatalogueQuery, as: As, fromAnswer: (answer: AnswerAs[As]) => T): Promise<T> => {
    for (;;) {
      if (!current) {
        const built = build();
        if (!waitForIndex) {
          built.catch(() => {});
          throw preparing();
        }
        await built;
        continue;
      }
      const { identifier, comments, ...rest } = query;
      const reply = await ask(rest, identifier, comments, as);
      if (reply.type === 'failed') throw new Error(reply.message);
      if (!reply.stale) return fromAnswer(reply.answer as AnswerAs[As]);
      // A load has committed since the index was built: on this server its build is under way;
      // a load of another server (PostgreSQL) is found here.
      const built = building ?? build();
      if (!waitForIndex) {
        built.catch(() => {});
        return fromAnswer(reply.answer as AnswerAs[As]);
      }
      await built;
    }
  };

  /** The index that answers now; while there is none, built, and waited for or refused as `answered` does. */
  const currentIndex = async (): Promise<Built> => {
    while (!current) {
      const built = build();
      if (!waitForIndex) {
        built.catch(() => {});
        throw preparing();
      }
      await built;
    }
    if (waitForIndex && building) await building;
    return current;
  };

  if (eager) void build().catch(() => {});

  return {
    search: (query) => answered(query, 'rows', ({ total, rows }) => ({ total, books: rows.map(fromRow) })),

    searchPage: (query) => answered(query, 'page', (answer) => answer),

    facet: async (facet) => (await currentIndex()).index.facets[facet],

    status: () => status,

    changed,

    searchingThreads: () => searchers.length,

    async close() {
      closed = true;
      const stopped = new Error('The catalogue is closed');
      const stopping = searchers;
      for (const searcher of stopping) {
        forget(searcher);
        for (const pending of searcher.waiting.values()) pending.reject(stopped);
      }
      await Promise.all([builder?.terminate(), keeping, ...stopping.map(({ worker }) => worker.terminate())]);
      current = undefined;
    },
  };
}
