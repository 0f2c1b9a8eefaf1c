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
  type BookmarkState,
  type BookmarkUpdate,
  type CutShortBookmarkImport,
  DEFAULT_BOOKMARK_PAGE_SIZE,
  NO_MORE_RESULTS,
  type TagCount,
} from '../../../contract/bookmarks.ts';
import type { Clock } from '../clock.ts';
import { AppError, notFound } from '../errors.ts';
import { searchTerms } from '../search/search-text.ts';
import { createFileImport } from './bookmark-file-import.ts';
import { linkKey } from './link-key.ts';
import { createImportGate } from './import-gate.ts';
import type { BookmarkImportsStore, ImportRecord } from './bookmark-imports.store.ts';
import type { BookmarkIndex, IndexQuery, IndexResult, VersionedResult } from './bookmarks.search.ts';
import { type BookmarkRow, fromRow } from './bookmark-row.ts';
import type { BookmarksStore } from './bookmarks.store.ts';
import { decodeCursor, encodeCursor } from './list-cursor.ts';
import type { FolderRoot } from './netscape-file-reader.ts';
import { writeNetscapeFile } from './netscape-file-writer.ts';
import { timeRange } from './time-range.ts';

/** Searches remembered, all users together; a few MB at most. */
const CACHED_SEARCHES = 2000;
/** Imports running at once on one server (each holds a file of up to 50 MB and its text). */
const CONCURRENT_IMPORTS = 2;
const duplicateLink = () => new AppError(409, 'You already have a bookmark for this link');
const indexed = (row: BookmarkRow): Bookmark => ({ ...fromRow(row), indexed: true });

const cutShortReply = (record: ImportRecord): CutShortBookmarkImport => ({
  id: record.id,
  started_at: new Date(Number(record.started_at)).toISOString(),
  links: Number(record.links),
  imported: Number(record.imported),
});

export function createBookmarksService({
  store,
  index,
  imports: importRecords,
  clock,
  importBatch,
  onCreated = async () => {},
}: {
  store: BookmarksStore;
  index: BookmarkIndex;
  imports: BookmarkImportsStore;
  clock: Clock;
  /** Bookmarks an import writes per transaction (`IMPORT_BATCH`). */
  importBatch?: number | undefined;
  /**
   * Told of each bookmark created one at a time (not imported), after it is stored: its page is
   * kept (archive/), the copy marked as being fetched before the reply, fetched after it.
   */
  onCreated?: (ownerId: string, bookmarkId: number) => Promise<void>;
}) {
  // A broad search counts the groups of every match, and a user's entries change only when
  // indexed: a result is kept until the owner's index version changes.
  const cache = new LRUCache<string, VersionedResult>({ max: CACHED_SEARCHES });
  const imports = createImportGate(CONCURRENT_IMPORTS);
  const importWhole = createFileImport({ store, index, imports: importRecords, clock, importBatch });
  /** Each owner's last import as it goes: one per owner (the gate lets each run one at a time). */
  const importProgress = new Map<string, BookmarkImportProgress>();

  /**
   * A kept result while the owner's index version is the one it was found at: that version read
   * first, else (on PostgreSQL, a round trip fewer) read with the search itself.
   */
  async function searchIndex(ownerId: string, query: IndexQuery): Promise<IndexResult> {
    const key = `${ownerId} ${JSON.stringify(query)}`;
    const kept = cache.get(key);
    if (kept && kept.version === (await index.version(ownerId))) return kept;
    const result = await index.search(ownerId, query);
    cache.set(key, result);
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

  return {
    /** Newest first; a page one longer than asked tells whether another follows. */
    async list(ownerId: string, query: BookmarkListQuery, cursor: string | undefined): Promise<BookmarkPage> {
      const after = decodeCursor(cursor);
      const range = timeRange(query.start_date, query.end_date);
      // The header and the page in one statement, the page's tag spelled as the header finds it.
      const page = after === 'done' ? undefined : { filter: { ...range, state: query.state }, after, limit: query.pageSize + 1 };
      const { summary, rows } = await store.summaryAndPage(ownerId, query.tag || undefined, page);
      const { tag, total: kept, ...groups } = summary;
      const filter = { tag, state: query.state, ...range };
      // The kept counts know no dates nor states: those are counted.
      const counted = filter.from !== undefined || filter.until !== undefined || filter.state !== undefined;
      const total = counted ? await store.countInRange(ownerId, filter) : kept;
      if (after === 'done') return { items: [], cursor: NO_MORE_RESULTS, total, ...groups };
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

    /** A new bookmark is unread unless the caller (linkding's API) says otherwise. */
    async create(ownerId: string, input: BookmarkInput, state: BookmarkState = 'unread'): Promise<Bookmark> {
      const now = clock.now();
      const row = await store.insert(ownerId, { ...input, createDate: now, updateDate: now, state });
      if (!row) throw duplicateLink();
      await onCreated(ownerId, Number(row.id));
      return fromRow(row);
    },

    /** Puts the owner's bookmark in `state`, its index entry with it; 404 when it is not the owner's. */
    async setState(ownerId: string, id: number, state: BookmarkState): Promise<Bookmark> {
      const [row] = await store.setState(ownerId, [id], state, (trx, ids) => index.setState(ownerId, ids, state, trx));
      if (!row) throw notFound('Bookmark');
      return fromRow(row);
    },

    /**
     * Up to `limit` of the owner's bookmarks in one of `states` (and with one of `tags`, in any
     * case, when given), newest first, after skipping `offset`, and how many there are.
     */
    async pageOfStates(
      ownerId: string,
      filter: { states: BookmarkState[]; tags?: string[] | undefined },
      offset: number,
      limit: number,
    ): Promise<{ total: number; bookmarks: Bookmark[] }> {
      const tags = filter.tags && (await Promise.all(filter.tags.map((tag) => store.spelling(ownerId, tag))));
      const { total, rows } = await store.pageOfStates(ownerId, { states: filter.states, tags }, offset, limit);
      return { total, bookmarks: rows.map(fromRow) };
    },

    /** Every tag of the owner with when it was first given (epoch ms). */
    tagsFirstGiven(ownerId: string): Promise<Array<{ tag: string; first: number }>> {
      return store.tagsFirstGiven(ownerId);
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

    /** `states`, when given, stands for the spec's one state: linkding's list is of two. */
    async search(
      ownerId: string,
      spec: BookmarkQuerySpec,
      page: { from?: number | undefined; size?: number | undefined },
      states?: BookmarkState[],
    ): Promise<BookmarkSearchResult> {
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
        states: states ?? (spec.state && [spec.state]),
        from,
        size,
      });
      return {
        bookmarks: result.rows.map(indexed),
        total_count: result.total,
        total: result.total,
        host_groups: result.host_groups,
        tag_groups: result.tag_groups,
        ...(result.snippets ? { snippets: result.snippets } : {}),
      };
    },

    /**
     * Adds the file's http(s) links that the owner does not have yet, and indexes them, a batch at
     * a time, each batch's bookmarks and index entries in one transaction, yielding to other
     * requests between batches. The file is read only once the import may start, and read whole
     * and checked to its end before a link is added, so that an upload cut short, over the size
     * limit or unreadable changes nothing; its chunks are decoded and parsed one slice at a time,
     * never as one text. An import that stops between two batches keeps the batches before, and
     * its row tells the owner so (`cutShortImport`).
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
          const reply = await importWhole(ownerId, file, progress);
          if (reply.imported > 0) await index.settle();
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

    /** The owner's latest import that stopped before it had written every link, on any server. */
    async cutShortImport(ownerId: string): Promise<CutShortBookmarkImport | null> {
      const record = await importRecords.latestCutShort(ownerId, clock.now());
      return record ? cutShortReply(record) : null;
    },

    /** Forgets an import that was cut short: its bookmarks stay. */
    async dismissCutShortImport(ownerId: string, id: string): Promise<void> {
      if (!(await importRecords.dismiss(ownerId, id, clock.now()))) throw notFound('Cut-short import');
    },

    async *export(ownerId: string): AsyncIterable<string> {
      async function* bookmarksIn(root: FolderRoot, folder: string[]) {
        for await (const row of store.inFolder(ownerId, root, folder)) yield { ...fromRow(row), keyword: row.keyword ?? undefined };
      }
      yield* writeNetscapeFile({ folders: await store.folders(ownerId), bookmarksIn });
    },
  };
}
export type BookmarksService = ReturnType<typeof createBookmarksService>;
