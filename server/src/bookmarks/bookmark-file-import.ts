import { createHash, randomUUID } from 'node:crypto';
import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { BookmarkImportProgress, BookmarkImportReply } from '../../../contract/bookmarks.ts';
import type { Clock } from '../clock.ts';
import type { Dialect } from '../storage/database.ts';
import { fileEntryOutcome } from './bookmark-file-entry.ts';
import { bookmarkFileText } from './bookmark-file-text.ts';
import { ALIVE_FOR_MS, type BookmarkImportsStore, type ImportRecord } from './bookmark-imports.store.ts';
import type { BookmarkIndex } from './bookmarks.search.ts';
import type { BookmarksStore, NewBookmark } from './bookmarks.store.ts';
import { readNetscapeFile } from './netscape-file-reader.ts';

const REPORTED_LINES = 100;
/** A skipped link is shown to say which it was; a bookmarklet's whole script would say no more. */
const REPORTED_LINK_LENGTH = 200;
/**
 * Bookmarks an import writes and indexes per transaction. On SQLite, whose driver does not
 * yield, a batch is what other requests may wait for. On a loaded 2-core machine 20 took a median
 * 4 ms to write and 2 ms to index (50 took 7–12 ms and 4–8; 10 took 3 and 2, the transaction's
 * own cost dominating), and the import about half as long again as with 50. Those were measured
 * with a statement per bookmark; a batch is now a few statements (bookmarks.store.ts).
 * PostgreSQL's driver waits for its answers off the event loop, and a batch's dozen statements
 * are round trips, each a few milliseconds on a loaded machine: with batches of 20 an import spent
 * most of its time waiting for them, and a larger batch holds only the owner's own rows longer.
 */
export const IMPORT_BATCH: Record<Dialect, number> = { sqlite: 20, postgres: 500 };
/** How often a running import renews its row: often enough that a few renewals late do not make it look cut short. */
const RENEW_EVERY_MS = ALIVE_FOR_MS / 3;
/** Bytes of the file hashed between two turns for other requests. */
const HASHED_AT_ONCE = 1024 * 1024;

/** Adds a line's message to a reply's list, which keeps the first hundred. */
function report(list: BookmarkImportReply['errors'], line: number, message: string) {
  if (list.length < REPORTED_LINES) list.push({ line, message });
}

/** Counts a skipped link and lists it with its reason among the first hundred. */
function skip(reply: BookmarkImportReply, line: number, link: string, reason: string) {
  reply.skipped++;
  if (reply.skipped_links.length < REPORTED_LINES) reply.skipped_links.push({ line, link: link.slice(0, REPORTED_LINK_LENGTH), reason });
}

/** The SHA-256 of the file's bytes, a few chunks at a time with a turn for other requests after each. */
async function fileSha256(file: readonly Uint8Array[]): Promise<string> {
  const hash = createHash('sha256');
  let hashed = 0;
  for (const chunk of file) {
    hash.update(chunk);
    hashed += chunk.length;
    if (hashed >= HASHED_AT_ONCE) {
      hashed = 0;
      await yieldToOthers();
    }
  }
  return hash.digest('hex');
}

/**
 * The links of the file, read once without writing anything: a file that cannot be read to its
 * end (not a bookmarks file, an encoding that cannot be read, nested past the bound) is refused
 * before it changes anything. The reader's steps resolve as promises alone, so each is followed
 * by a turn for other requests, or the whole file would be parsed before any of them.
 */
async function linksIn(file: readonly Uint8Array[]): Promise<number> {
  let links = 0;
  for await (const entries of readNetscapeFile(bookmarkFileText(file))) {
    links += entries.length;
    await yieldToOthers();
  }
  return links;
}

export type FileImportParts = {
  store: BookmarksStore;
  index: BookmarkIndex;
  imports: BookmarkImportsStore;
  clock: Clock;
  /** Bookmarks written per transaction (`IMPORT_BATCH`); SQLite's when not given. */
  importBatch?: number | undefined;
};

/**
 * Imports a bookmarks file received whole: read once to check it and count its links, then again
 * to write them a batch at a time, each batch's bookmarks and index entries in one transaction,
 * the import's row (bookmark-imports.store.ts) saying how far it got.
 */
export function createFileImport({ store, index, imports: importRecords, clock, importBatch = IMPORT_BATCH.sqlite }: FileImportParts) {
  /**
   * Runs `work` as the import `record`, whose row says how far it got: renewed while it runs,
   * forgotten once it has written every link, kept as cut short when it fails (and, when the server
   * stops, once no longer renewed).
   */
  async function recorded<T>(ownerId: string, record: ImportRecord, work: () => Promise<T>): Promise<T> {
    await importRecords.start(ownerId, record);
    let stopped = false;
    let cancelWake = () => {};
    const renew = () => {
      if (stopped) return;
      cancelWake = clock.wakeAt(clock.now() + RENEW_EVERY_MS, () => {
        void importRecords.alive(ownerId, record.id, clock.now()).then(renew, renew);
      });
    };
    const stopRenewing = () => {
      stopped = true;
      cancelWake();
    };
    renew();
    try {
      const result = await work();
      stopRenewing();
      await importRecords.finished(ownerId, record, clock.now());
      return result;
    } catch (error) {
      stopRenewing();
      // Should this fail too, the row is no longer renewed, and counts as cut short all the same.
      await importRecords.failed(ownerId, record.id).catch(() => {});
      throw error;
    }
  }

  async function importFile(
    ownerId: string,
    importId: string,
    file: readonly Uint8Array[],
    progress: BookmarkImportProgress,
  ): Promise<BookmarkImportReply> {
    const now = clock.now();
    const reply: BookmarkImportReply = {
      imported: 0,
      skipped: 0,
      skipped_links: [],
      errors: [],
      shortened: 0,
      undated: 0,
      warnings: [],
      cut_short: false,
    };
    /** Links accepted and not yet written, with their lines: a batch may gather the links of several slices of text. */
    let accepted: Array<{ line: number; bookmark: NewBookmark }> = [];
    /** The line of each link accepted so far, so that a repeat is told from a link saved before the import. */
    const acceptedAt = new Map<string, number>();
    const write = async (batch: typeof accepted) => {
      const rows = await store.insertMany(
        ownerId,
        batch.map((one) => one.bookmark),
        async (trx, written) => {
          await index.put(ownerId, written, trx);
          await importRecords.written(trx, ownerId, importId, reply.imported + written.length, clock.now());
        },
      );
      reply.imported += rows.length;
      const written = new Set(rows.map((row) => row.link));
      for (const { line, bookmark } of batch) if (!written.has(bookmark.link)) skip(reply, line, bookmark.link, 'already saved');
      Object.assign(progress, { imported: reply.imported, skipped: reply.skipped });
      await yieldToOthers();
    };
    const reading = readNetscapeFile(bookmarkFileText(file));
    for (let step = await reading.next(); ; step = await reading.next()) {
      if (step.done) {
        if (accepted.length > 0) await write(accepted);
        reply.cut_short = step.value.cutShort;
        return reply;
      }
      for (const entry of step.value) {
        const outcome = fileEntryOutcome(entry, now);
        progress.read++;
        const repeated = outcome.kind === 'kept' ? acceptedAt.get(outcome.bookmark.link) : undefined;
        if (outcome.kind === 'skipped') skip(reply, entry.line, entry.link, outcome.reason);
        else if (outcome.kind === 'invalid') {
          report(reply.errors, entry.line, outcome.message);
          progress.errors++;
        } else if (repeated !== undefined) {
          skip(reply, entry.line, outcome.bookmark.link, `repeats line ${repeated.toLocaleString('en')}`);
        } else {
          acceptedAt.set(outcome.bookmark.link, entry.line);
          accepted.push({ line: entry.line, bookmark: outcome.bookmark });
          if (outcome.shortened) reply.shortened++;
          if (outcome.undated) reply.undated++;
          for (const warning of outcome.warnings) report(reply.warnings, entry.line, warning);
        }
      }
      let start = 0;
      for (; accepted.length - start >= importBatch; start += importBatch) await write(accepted.slice(start, start + importBatch));
      accepted = accepted.slice(start);
      await yieldToOthers();
    }
  }

  return async (ownerId: string, file: readonly Uint8Array[], progress: BookmarkImportProgress): Promise<BookmarkImportReply> => {
    const links = await linksIn(file);
    const record = { id: randomUUID(), file_sha256: await fileSha256(file), links, imported: 0, started_at: clock.now() };
    return recorded(ownerId, record, () => importFile(ownerId, record.id, file, progress));
  };
}
