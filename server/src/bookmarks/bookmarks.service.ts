import { setImmediate as yieldToOthers } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import {
  BOOKMARK_SEARCH_FIELDS,
  type Bookmark,
  type BookmarkBulkAction,
  type BookmarkBulkReply,
  type BookmarkInput,
  type BookmarkImportProgress,
  type BookmarkImportReply,
  type BookmarkListQuery,
  type BookmarkPage,
  type BookmarkQuerySpec,
  type BookmarkSearchResult,
  type BookmarkUpdate,
  DEFAULT_BOOKMARK_PAGE_SIZE,
  NO_MORE_RESULTS,
  type TagCount,
} from '../../../contract/bookmarks.ts';
import type { Clock } from '../clock.ts';
import { AppError, notFound } from '../errors.ts';
import { searchTerms } from '../search/search-text.ts';
import { fileEntryOutcome } from './bookmark-file-entry.ts';
import { linkKey } from './link-key.ts';
import { createImportGate } from './import-gate.ts';
import { bookmarkFileText } from './bookmark-file-text.ts';
import type { BookmarkIndex, IndexQuery, IndexResult } from './bookmarks.search.ts';
import { type BookmarkRow, fromRow } from './bookmark-row.ts';
import type { BookmarksStore, NewBookmark } from './bookmarks.store.ts';
import { decodeCursor, encodeCursor } from './list-cursor.ts';
import { readNetscapeFile } from './netscape-file-reader.ts';
import { writeNetscapeFile } from './netscape-file-writer.ts';
import { timeRange } from './time-range.ts';

const REPORTED_LINES = 100;
/** Searches remembered, all users together; a few MB at most. */
const CACHED_SEARCHES = 2000;
/**
 * Bookmarks an import writes (then indexes) per transaction: on SQLite, whose driver does not
 * yield, a batch is what other requests may wait for. On a loaded 2-core machine 20 took a median
 * 4 ms to write and 2 ms to index (50 took 7–12 ms and 4–8; 10 took 3 and 2, the transaction's
 * own cost dominating), and the import about half as long again as with 50. Those were measured
 * with a statement per bookmark; a batch is now a few statements (bookmarks.store.ts).
 */
const IMPORT_BATCH = 20;
/** Imports running at once on one server (each holds a file of up to 50 MB and its text). */
const CONCURRENT_IMPORTS = 2;

const duplicateLink = () => new AppError(409, 'You already have a bookmark for this link');
const indexed = (row: BookmarkRow): Bookmark => ({ ...fromRow(row), indexed: true });

/** Adds a line's message to a reply's list, which keeps the first hundred. */
function report(list: BookmarkImportReply['errors'], line: number, message: string) {
  if (list.length < REPORTED_LINES) list.push({ line, message });
}

export function createBookmarksService({ store, index, clock }: { store: BookmarksStore; index: BookmarkIndex; clock: Clock }) {
  // A broad search counts the groups of every match, and a user's entries change only when
  // indexed: a result is kept until the owner's index version changes.
  const cache = new LRUCache<string, IndexResult>({ max: CACHED_SEARCHES });
  const imports = createImportGate(CONCURRENT_IMPORTS);
  /** Each owner's last import as it goes: one per owner (the gate lets each run one at a time). */
  const importProgress = new Map<string, BookmarkImportProgress>();

  async function searchIndex(ownerId: string, query: IndexQuery): Promise<IndexResult> {
    const key = `${ownerId} ${await index.version(ownerId)} ${JSON.stringify(query)}`;
    let result = cache.get(key);
    if (!result) {
      result = await index.search(ownerId, query);
      cache.set(key, result);
    }
    return result;
  }

  async function owned(ownerId: string, id: number): Promise<BookmarkRow> {
    const row = await store.get(ownerId, id);
    if (!row) throw notFound('Bookmark');
    return row;
  }

  /** The index entries go first: a failure between the two leaves a bookmark not indexed, never an entry without one. */
  async function deleteMany(ownerId: string, ids: number[]): Promise<number> {
    await index.remove(ownerId, ids);
    return (await store.delete(ownerId, ids)).length;
  }

  async function importFile(ownerId: string, file: readonly Uint8Array[], progress: BookmarkImportProgress): Promise<BookmarkImportReply> {
    const now = clock.now();
    const reply: BookmarkImportReply = { imported: 0, skipped: 0, errors: [], shortened: 0, undated: 0, warnings: [], cut_short: false };
    const reading = readNetscapeFile(bookmarkFileText(file));
    for (let step = await reading.next(); ; step = await reading.next()) {
      if (step.done) {
        reply.cut_short = step.value.cutShort;
        return reply;
      }
      const accepted: NewBookmark[] = [];
      for (const entry of step.value) {
        const outcome = fileEntryOutcome(entry, now);
        progress.read++;
        if (outcome.kind === 'skipped') reply.skipped++;
        else if (outcome.kind === 'invalid') {
          report(reply.errors, entry.line, outcome.message);
          progress.errors++;
        } else {
          accepted.push(outcome.bookmark);
          if (outcome.shortened) reply.shortened++;
          if (outcome.undated) reply.undated++;
          for (const warning of outcome.warnings) report(reply.warnings, entry.line, warning);
        }
      }
      for (let start = 0; start < accepted.length; start += IMPORT_BATCH) {
        const batch = accepted.slice(start, start + IMPORT_BATCH);
        const rows = await store.insertMany(ownerId, batch);
        await yieldToOthers();
        await index.put(ownerId, rows);
        reply.imported += rows.length;
        reply.skipped += batch.length - rows.length;
        Object.assign(progress, { imported: reply.imported, skipped: reply.skipped });
        await yieldToOthers();
      }
      await yieldToOthers();
    }
  }

  return {
    /** Newest first; a page one longer than asked tells whether another follows. */
    async list(ownerId: string, query: BookmarkListQuery, cursor: string | undefined): Promise<BookmarkPage> {
      const after = decodeCursor(cursor);
      const { tag, total: kept, ...groups } = await store.summary(ownerId, query.tag || undefined);
      const filter = { tag, ...timeRange(query.start_date, query.end_date) };
      // The kept counts know no dates: a range is counted.
      const total = filter.from === undefined && filter.until === undefined ? kept : await store.countInRange(ownerId, filter);
      if (after === 'done') return { items: [], cursor: NO_MORE_RESULTS, total, ...groups };
      const rows = await store.page(ownerId, filter, after, query.pageSize + 1);
      const items = rows.slice(0, query.pageSize);
      const last = items.at(-1);
      const next =
        rows.length > query.pageSize && last ? encodeCursor({ createDate: Number(last.create_date), id: Number(last.id) }) : NO_MORE_RESULTS;
      return { items: items.map(fromRow), cursor: next, total, ...groups };
    },

    tags(ownerId: string): Promise<TagCount[]> {
      return store.tags(ownerId);
    },

    /** Deletes the bookmark and its index entry. */
    async delete(ownerId: string, id: number): Promise<void> {
      if ((await deleteMany(ownerId, [id])) === 0) throw notFound('Bookmark');
    },

    /** Several of the owner's bookmarks at once; ids that are not the owner's are left alone. */
    async bulk(ownerId: string, action: BookmarkBulkAction): Promise<BookmarkBulkReply> {
      const ids = [...new Set(action.ids)];
      if (action.action === 'delete') return { count: await deleteMany(ownerId, ids) };
      const changed = await store.addTag(ownerId, ids, action.tag, clock.now());
      // Indexed again as the client does after every save, so a search finds the new tag.
      await index.put(ownerId, changed);
      return { count: changed.length };
    },

    async get(ownerId: string, id: number): Promise<Bookmark> {
      return fromRow(await owned(ownerId, id));
    },

    /** The owner's bookmark of the same link, compared after normalising it; null when there is none. */
    async lookup(ownerId: string, link: string): Promise<Bookmark | null> {
      const row = await store.findByLinkKey(ownerId, linkKey(link));
      return row ? fromRow(row) : null;
    },

    async create(ownerId: string, input: BookmarkInput): Promise<Bookmark> {
      const now = clock.now();
      const row = await store.insert(ownerId, { ...input, createDate: now, updateDate: now });
      if (!row) throw duplicateLink();
      return fromRow(row);
    },

    async update(ownerId: string, id: number, body: BookmarkUpdate): Promise<Bookmark> {
      if (body.id !== id) throw new AppError(400, `id: the body's id ${body.id} is not the bookmark ${id} of the path`);
      const { title, link, tags, note } = body;
      const result = await store.update(ownerId, id, { title, link, tags, note }, clock.now());
      if (result === 'missing') throw notFound('Bookmark');
      if (result === 'duplicate') throw duplicateLink();
      return fromRow(result);
    },

    async indexEntry(ownerId: string, id: number): Promise<Bookmark> {
      const row = await index.get(ownerId, id);
      if (!row) throw notFound('Index entry');
      return indexed(row);
    },

    /** Indexes the bookmark as it is stored: the index never holds what the owner has not saved. */
    async indexBookmark(ownerId: string, body: BookmarkUpdate): Promise<Bookmark> {
      const row = await owned(ownerId, body.id);
      await index.put(ownerId, [row]);
      return indexed(row);
    },

    async search(ownerId: string, spec: BookmarkQuerySpec, page: { from?: number | undefined; size?: number | undefined }): Promise<BookmarkSearchResult> {
      const from = page.from ?? spec.from ?? 0;
      const size = page.size ?? spec.size ?? DEFAULT_BOOKMARK_PAGE_SIZE;
      const terms = searchTerms(spec.key_words.join(' '));
      // Words of nothing but syntax characters can match nothing.
      if (terms.length === 0) return { bookmarks: [], total_count: 0, total: 0, host_groups: [], tag_groups: [] };
      const range = (bounds: BookmarkQuerySpec['create_time_range']) => bounds && timeRange(bounds.start, bounds.end);
      const result = await searchIndex(ownerId, {
        terms,
        fields: spec.fields && spec.fields.length > 0 ? [...new Set(spec.fields)] : [...BOOKMARK_SEARCH_FIELDS],
        hosts: spec.hosts,
        tags: spec.tags && (await Promise.all(spec.tags.map((tag) => store.spelling(ownerId, tag)))),
        created: range(spec.create_time_range),
        updated: range(spec.update_time_range),
        from,
        size,
      });
      return {
        bookmarks: result.rows.map(indexed),
        total_count: result.total,
        total: result.total,
        host_groups: result.host_groups,
        tag_groups: result.tag_groups,
      };
    },

    /**
     * Adds the file's http(s) links that the owner does not have yet, and indexes them, a few
     * hundred at a time, each batch in its own transaction, yielding to other requests between
     * batches. The file is read only once the import may start, and whole before a link is added, so
     * that an upload cut short or over the size limit changes nothing; its chunks are decoded and
     * parsed one slice at a time, never as one text.
     */
    import(ownerId: string, readFile: (onBytes: (bytes: number) => void) => Promise<readonly Uint8Array[]>): Promise<BookmarkImportReply> {
      return imports.run(ownerId, async () => {
        const progress: BookmarkImportProgress = {
          phase: 'receiving',
          bytes: 0,
          read: 0,
          imported: 0,
          skipped: 0,
          errors: 0,
          started_at: new Date(clock.now()).toISOString(),
        };
        importProgress.set(ownerId, progress);
        try {
          const file = await readFile((bytes) => (progress.bytes += bytes));
          progress.phase = 'reading';
          const reply = await importFile(ownerId, file, progress);
          Object.assign(progress, { phase: 'done', imported: reply.imported, skipped: reply.skipped });
          return reply;
        } catch (error) {
          progress.phase = 'failed';
          throw error;
        }
      });
    },

    /** The owner's running import, else their last one since the server started (issue 18); one server's own. */
    importProgress(ownerId: string): BookmarkImportProgress | null {
      const progress = importProgress.get(ownerId);
      return progress ? { ...progress } : null;
    },

    export(ownerId: string): AsyncIterable<string> {
      async function* bookmarks() {
        for await (const row of store.all(ownerId)) yield fromRow(row);
      }
      return writeNetscapeFile(bookmarks());
    },
  };
}
export type BookmarksService = ReturnType<typeof createBookmarksService>;
