import pLimit from 'p-limit';
import { type BookmarkArchive, readingMinutes } from '../../../../contract/bookmark-archives.ts';
import type { Clock } from '../../clock.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Job } from '../../job.ts';
import type { Logger } from '../../logger.ts';
import type { ArchivesStore, ArchiveSummaryRow, KeptFields } from './archives.store.ts';
import type { KeptArticle, PageArchiver } from './page-archiver.ts';
import { readerDocument } from './reader-document.ts';

const isoOrNull = (time: number | null) => (time === null ? null : new Date(Number(time)).toISOString());

const toReply = (row: ArchiveSummaryRow): BookmarkArchive => ({
  bookmark_id: Number(row.bookmark_id),
  status: row.status,
  source: row.source,
  failure: row.failure,
  title: row.title,
  byline: row.byline,
  site_name: row.site_name,
  length: Number(row.length),
  words: Number(row.words),
  reading_minutes: readingMinutes(Number(row.words)),
  images: Number(row.images),
  size: Number(row.size),
  attempted_at: new Date(Number(row.attempted_at)).toISOString(),
  kept_at: isoOrNull(row.kept_at),
});

const keptFields = (article: KeptArticle): KeptFields => ({
  title: article.title || null,
  byline: article.byline || null,
  site_name: article.siteName || null,
  html: article.html,
  text: article.text,
  length: article.text.length,
  words: article.words,
  images: article.images,
  size: Buffer.byteLength(article.html) + Buffer.byteLength(article.text),
});

/** Pages fetched and read at once on one server: a script saving a thousand links queues them rather than opening a thousand fetches. */
const PAGES_AT_ONCE = 2;

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * Kept copies of bookmarked pages (docs/behaviour/bookmarks.md, "Kept copies"): fetched in the
 * background after a save or on request, or sent by the browser; counted against each owner's
 * quota. A fetch that fails leaves its reason on the copy, and the bookmark as it was.
 */
export function createArchiveService({
  store,
  archiver,
  clock,
  quotaBytes,
  log,
}: {
  store: ArchivesStore;
  archiver: PageArchiver;
  clock: Clock;
  quotaBytes: number;
  log: Logger;
}) {
  const running = new Set<Promise<void>>();
  const atOnce = pLimit(PAGES_AT_ONCE);
  // Ends the fetches under way when the server stops: they stay pending, and run again at the next start.
  let stopping = new AbortController();

  const overQuota = (used: number, adding: number) =>
    new AppError(
      413,
      `Kept copies would take ${megabytes(used + adding)} of your ${megabytes(quotaBytes)} (ARCHIVE_QUOTA_MB): delete some bookmarks' copies or ask for a larger quota`,
    );

  async function owned(ownerId: string, bookmarkId: number): Promise<ArchiveSummaryRow> {
    const row = await store.get(ownerId, bookmarkId);
    if (!row) throw notFound('Kept copy');
    return row;
  }

  async function fetchAndKeep(ownerId: string, bookmarkId: number, link: string, startedAt: number): Promise<void> {
    const { signal } = stopping;
    // Waited for its turn past a stop: it stays pending for the next start.
    if (signal.aborted) return;
    try {
      const fields = keptFields(await archiver.fetchPage(link, signal));
      if (signal.aborted) return;
      const { bytes } = await store.usage(ownerId, bookmarkId);
      if (bytes + fields.size > quotaBytes) throw overQuota(bytes, fields.size);
      await store.finishFetch(ownerId, bookmarkId, startedAt, fields, clock.now());
    } catch (error) {
      if (signal.aborted) return;
      if (!(error instanceof AppError)) log.error({ err: error, bookmarkId }, 'keeping a page failed');
      const reason = error instanceof AppError ? error.message.replace(/^link: /, '') : 'the page could not be read';
      await store.failFetch(ownerId, bookmarkId, startedAt, reason);
    }
  }

  /** Runs the fetch after the reply: the caller never waits on the page. */
  function inBackground(ownerId: string, bookmarkId: number, link: string, startedAt: number) {
    if (stopping.signal.aborted) return;
    const run = atOnce(() => fetchAndKeep(ownerId, bookmarkId, link, startedAt))
      .catch((error: unknown) => log.error({ err: error, bookmarkId }, 'recording a kept page failed'))
      .finally(() => running.delete(run));
    running.add(run);
  }

  /** Marks the copy pending; the fetch it gives starts when called. Undefined when the bookmark is not the owner's. */
  async function markPending(ownerId: string, bookmarkId: number): Promise<(() => void) | undefined> {
    const link = await store.linkOf(ownerId, bookmarkId);
    if (link === undefined) return undefined;
    const at = clock.now();
    if (!(await store.startFetch(ownerId, bookmarkId, at))) return undefined;
    return () => inBackground(ownerId, bookmarkId, link, at);
  }

  async function startFetch(ownerId: string, bookmarkId: number): Promise<boolean> {
    const fetchNow = await markPending(ownerId, bookmarkId);
    fetchNow?.();
    return fetchNow !== undefined;
  }

  const job: Job = {
    name: 'kept pages',
    start() {
      stopping = new AbortController();
      // Fetches the last run of the server left under way.
      void store.pending().then(
        (rows) => rows.forEach((row) => void startFetch(row.owner_id, Number(row.bookmark_id))),
        (error: unknown) => log.error({ err: error }, 'reading the pages to keep failed'),
      );
    },
    async stop() {
      stopping.abort();
      await Promise.allSettled([...running]);
    },
  };

  return {
    job,

    /** After a save: the copy is marked pending and fetched in the background; a failure to start it never fails the save. */
    async afterSave(ownerId: string, bookmarkId: number): Promise<void> {
      await startFetch(ownerId, bookmarkId).catch((error: unknown) => log.error({ err: error, bookmarkId }, 'keeping a page did not start'));
    },

    /** "Keep a copy" and "Retry": fetched again in the background; refused while the owner is at their quota. */
    async keep(ownerId: string, bookmarkId: number): Promise<BookmarkArchive> {
      if ((await store.linkOf(ownerId, bookmarkId)) === undefined) throw notFound('Bookmark');
      const { bytes } = await store.usage(ownerId, bookmarkId);
      if (bytes >= quotaBytes) throw overQuota(bytes, 0);
      const fetchNow = await markPending(ownerId, bookmarkId);
      if (fetchNow === undefined) throw notFound('Bookmark');
      // Read before the fetch starts: a page that answers at once must not make the reply 'kept'.
      const reply = toReply(await owned(ownerId, bookmarkId));
      fetchNow();
      return reply;
    },

    /** A page the browser sent for the bookmark (a SingleFile capture, or the bookmarklet's): kept now, in place of any copy. */
    async upload(ownerId: string, bookmarkId: number, page: Uint8Array): Promise<BookmarkArchive> {
      const link = await store.linkOf(ownerId, bookmarkId);
      if (link === undefined) throw notFound('Bookmark');
      const fields = keptFields(await archiver.fromCapture(page, link));
      if (fields.words === 0) throw new AppError(422, 'file: the page holds no text to keep');
      const { bytes } = await store.usage(ownerId, bookmarkId);
      if (bytes + fields.size > quotaBytes) throw overQuota(bytes, fields.size);
      if (!(await store.putUpload(ownerId, bookmarkId, fields, clock.now()))) throw notFound('Bookmark');
      return toReply(await owned(ownerId, bookmarkId));
    },

    async get(ownerId: string, bookmarkId: number): Promise<BookmarkArchive> {
      return toReply(await owned(ownerId, bookmarkId));
    },

    /** The copies of the owner's bookmarks among `bookmarkIds`; bookmarks without one, or not theirs, are left out. */
    async summaries(ownerId: string, bookmarkIds: number[]): Promise<BookmarkArchive[]> {
      return (await store.summaries(ownerId, bookmarkIds)).map(toReply);
    },

    /** The kept copy as a document for the reader view. */
    async reader(ownerId: string, bookmarkId: number): Promise<string> {
      const row = await store.reader(ownerId, bookmarkId);
      if (!row?.html) throw notFound('Kept copy');
      return readerDocument({ title: row.title ?? row.bookmark_title, byline: row.byline, siteName: row.site_name, link: row.link, html: row.html });
    },

    async usage(ownerId: string) {
      const { copies, bytes } = await store.usage(ownerId);
      return { copies, used_bytes: bytes, quota_bytes: quotaBytes };
    },
  };
}
export type ArchiveService = ReturnType<typeof createArchiveService>;
