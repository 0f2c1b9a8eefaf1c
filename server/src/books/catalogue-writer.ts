import { Worker } from 'node:worker_threads';
import { moduleBeside } from '../server-files.ts';

export type CompiledStatement = { sql: string; parameters: readonly unknown[] };

/** A book as its statement binds it: its row, its id first (`?1`). */
export type WrittenBook = unknown[];

export type WriterSetup = {
  file: string;
  /** Run once the transaction has begun: a replace empties the catalogue. */
  start: string | undefined;
  /** Read once it has begun: the stored value the load starts from (its library folder). */
  read: CompiledStatement | undefined;
  /** Inserts a book, or updates the one of its id. */
  insert: string;
};

export type ToWriter = { type: 'books'; books: WrittenBook[] } | { type: 'commit'; finish: CompiledStatement[] } | { type: 'rollback' };
export type FromWriter =
  | { type: 'ready'; value: string | undefined }
  | { type: 'wrote' }
  | { type: 'committed' }
  | { type: 'rolledBack' }
  | { type: 'failed'; message: string };

/** Books sent at once: a message costs about as much as a few books' values. */
const BOOKS_PER_MESSAGE = 256;
/** Nor more text than this at once, whatever the books' size (a record may be 4 MB). */
const CHARACTERS_PER_MESSAGE = 512 * 1024;
/**
 * Messages sent and not yet written: enough that the writer never waits for the next one, few
 * enough that a reader faster than the writer holds a megabyte or two of books, not the file.
 */
const MESSAGES_AHEAD = 4;

/** A book's text, about: what its message costs to copy and to hold. */
const characters = (book: WrittenBook) => {
  let count = 0;
  for (const value of book) if (typeof value === 'string') count += value.length;
  return count;
};

/**
 * A catalogue load's writes on a thread of their own: SQLite writes synchronously, and on the main
 * thread a load's reading, parsing and checking of records waited for every insert and the inserts
 * for them. Here the main thread prepares a book's values while the writer inserts the ones before,
 * and the event loop stays free for other requests. The transaction is the writer's: `commit`
 * makes the load visible, `rollback` (or any failure) leaves the catalogue as it was.
 */
export async function openCatalogueWriter(setup: WriterSetup) {
  const worker = new Worker(moduleBeside(import.meta.url, './catalogue-writer-worker'), {
    workerData: setup,
  });
  const replies: FromWriter[] = [];
  let stopped: Error | undefined;
  let ended = false;
  let wake = () => {};
  worker.on('message', (message: FromWriter) => {
    replies.push(message);
    wake();
  });
  worker.on('error', (error) => {
    stopped = error;
    wake();
  });
  worker.on('exit', () => {
    stopped ??= new Error('The catalogue writer stopped');
    wake();
  });

  async function reply(): Promise<FromWriter> {
    for (;;) {
      const message = replies.shift();
      if (message?.type === 'failed') {
        ended = true;
        throw new Error(message.message);
      }
      if (message) return message;
      if (stopped) {
        ended = true;
        throw stopped;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  }

  let batch: WrittenBook[] = [];
  let batchCharacters = 0;
  let ahead = 0;
  const send = (message: ToWriter) => worker.postMessage(message);
  const flush = () => {
    if (batch.length === 0) return;
    send({ type: 'books', books: batch });
    batch = [];
    batchCharacters = 0;
    ahead++;
  };
  async function caughtUp(most: number) {
    while (ahead > most) {
      if ((await reply()).type === 'wrote') ahead--;
    }
  }

  const ready = await reply();
  if (ready.type !== 'ready') throw new Error(`The catalogue writer answered ${ready.type} before it was ready`);
  return {
    value: ready.value,

    /** Resolves at once unless the writer is MESSAGES_AHEAD messages behind; a failed write rejects a later call. */
    async write(book: WrittenBook) {
      batch.push(book);
      batchCharacters += characters(book);
      if (batch.length < BOOKS_PER_MESSAGE && batchCharacters < CHARACTERS_PER_MESSAGE) return;
      flush();
      await caughtUp(MESSAGES_AHEAD - 1);
    },

    async commit(finish: CompiledStatement[]) {
      flush();
      await caughtUp(0);
      send({ type: 'commit', finish });
      while ((await reply()).type !== 'committed');
      ended = true;
    },

    /** Leaves the catalogue as it was; nothing to do once the writer has failed (its failure rolled back). */
    async rollback() {
      if (ended) return;
      ended = true;
      send({ type: 'rollback' });
      try {
        while ((await reply()).type !== 'rolledBack');
      } catch {
        // The writer stopped on its own: its connection, and the transaction with it, are gone.
      }
    },
  };
}
export type CatalogueWriter = Awaited<ReturnType<typeof openCatalogueWriter>>;
