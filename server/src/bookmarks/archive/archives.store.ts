import type { Kysely, Selectable, Transaction } from 'kysely';
import type { BookmarkArchivesTable, Database } from '../../storage/schema.ts';
import type { PutPageWords } from '../bookmark-page-words.ts';

type ArchiveRow = Selectable<BookmarkArchivesTable>;
/** A copy without its HTML and text, as its status and the cards show it. */
export type ArchiveSummaryRow = Omit<ArchiveRow, 'html' | 'text' | 'owner_id'>;
/** What a kept copy is made of. */
export type KeptFields = Pick<ArchiveRow, 'title' | 'byline' | 'site_name' | 'html' | 'text' | 'length' | 'words' | 'images' | 'size'>;

const SUMMARY = [
  'bookmark_id',
  'status',
  'source',
  'failure',
  'title',
  'byline',
  'site_name',
  'length',
  'words',
  'images',
  'size',
  'attempted_at',
  'kept_at',
] as const;

const NO_COPY = { failure: null, title: null, byline: null, site_name: null, html: null, text: null, length: 0, words: 0, images: 0, size: 0, kept_at: null };

/**
 * The kept copies (bookmark_archives); every function takes the owner, checked in the statement
 * itself. A copy's text is written with its words (`putWords`), in one transaction, so that a
 * search never finds a page by words it no longer has.
 */
export function createArchivesStore(db: Kysely<Database>, putWords: PutPageWords) {
  /**
   * A row for the owner's bookmark, made from the bookmark in the same statement (so another
   * user's id adds nothing), or the row there is changed: null when the bookmark is not theirs.
   */
  async function upsert(
    trx: Kysely<Database> | Transaction<Database>,
    ownerId: string,
    bookmarkId: number,
    values: Partial<ArchiveRow> & Pick<ArchiveRow, 'status' | 'source' | 'attempted_at'>,
  ) {
    const row = { ...NO_COPY, ...values };
    const inserted = await trx
      .insertInto('bookmark_archives')
      .columns(['bookmark_id', 'owner_id', ...(Object.keys(row) as Array<keyof typeof row>)])
      .expression((eb) =>
        eb
          .selectFrom('bookmarks')
          .select((s) => [s.ref('bookmarks.id').as('bookmark_id'), s.ref('bookmarks.owner_id').as('owner_id'), ...Object.entries(row).map(([name, value]) => s.val(value).as(name))])
          .where('bookmarks.id', '=', bookmarkId)
          .where('bookmarks.owner_id', '=', ownerId),
      )
      .onConflict((conflict) => conflict.column('bookmark_id').doUpdateSet(values).where('bookmark_archives.owner_id', '=', ownerId))
      .returning('bookmark_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  return {
    /** The bookmark's link, when it is the owner's. */
    async linkOf(ownerId: string, bookmarkId: number): Promise<string | undefined> {
      const row = await db.selectFrom('bookmarks').select('link').where('id', '=', bookmarkId).where('owner_id', '=', ownerId).executeTakeFirst();
      return row?.link;
    },

    /** Marks the copy as being fetched, its copy so far (if any) kept until a new one replaces it; false when the bookmark is not the owner's. */
    startFetch(ownerId: string, bookmarkId: number, at: number): Promise<boolean> {
      return upsert(db, ownerId, bookmarkId, { status: 'pending', source: 'server', failure: null, attempted_at: at });
    },

    /** Stores a page the browser sent: it replaces any copy, and ends any fetch under way. */
    putUpload(ownerId: string, bookmarkId: number, fields: KeptFields, at: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const kept = await upsert(trx, ownerId, bookmarkId, { ...fields, status: 'kept', source: 'upload', failure: null, attempted_at: at, kept_at: at });
        if (kept) await putWords(trx, ownerId, bookmarkId, fields.text);
        return kept;
      });
    },

    /** The fetch started at `startedAt` ends kept; nothing when a later fetch or an upload has taken its place. */
    async finishFetch(ownerId: string, bookmarkId: number, startedAt: number, fields: KeptFields, at: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const { numUpdatedRows } = await trx
          .updateTable('bookmark_archives')
          .set({ ...fields, status: 'kept', failure: null, kept_at: at })
          .where('bookmark_id', '=', bookmarkId)
          .where('owner_id', '=', ownerId)
          .where('status', '=', 'pending')
          .where('attempted_at', '=', startedAt)
          .executeTakeFirstOrThrow();
        if (numUpdatedRows > 0n) await putWords(trx, ownerId, bookmarkId, fields.text);
      });
    },

    /** The fetch started at `startedAt` failed: the reason is kept, and a copy kept before it stays readable. */
    async failFetch(ownerId: string, bookmarkId: number, startedAt: number, failure: string): Promise<void> {
      await db
        .updateTable('bookmark_archives')
        .set({ status: 'failed', failure })
        .where('bookmark_id', '=', bookmarkId)
        .where('owner_id', '=', ownerId)
        .where('status', '=', 'pending')
        .where('attempted_at', '=', startedAt)
        .execute();
    },

    get(ownerId: string, bookmarkId: number): Promise<ArchiveSummaryRow | undefined> {
      return db.selectFrom('bookmark_archives').select(SUMMARY).where('bookmark_id', '=', bookmarkId).where('owner_id', '=', ownerId).executeTakeFirst();
    },

    summaries(ownerId: string, bookmarkIds: number[]): Promise<ArchiveSummaryRow[]> {
      if (bookmarkIds.length === 0) return Promise.resolve([]);
      return db.selectFrom('bookmark_archives').select(SUMMARY).where('owner_id', '=', ownerId).where('bookmark_id', 'in', bookmarkIds).orderBy('bookmark_id').execute();
    },

    /** The copy's article and what the reader heads it with; undefined when there is none to read. */
    reader(ownerId: string, bookmarkId: number) {
      return db
        .selectFrom('bookmark_archives')
        .innerJoin('bookmarks', 'bookmarks.id', 'bookmark_archives.bookmark_id')
        .select(['bookmark_archives.title', 'bookmarks.title as bookmark_title', 'bookmarks.link', 'byline', 'site_name', 'html', 'words', 'kept_at', 'attempted_at'])
        .where('bookmark_archives.bookmark_id', '=', bookmarkId)
        .where('bookmark_archives.owner_id', '=', ownerId)
        .where('html', 'is not', null)
        .executeTakeFirst();
    },

    /** The owner's unread bookmarks with a copy to read, the last kept first, with the start of each text, and how many there are. */
    async unreadPage(ownerId: string, from: number, size: number, summaryLength: number) {
      const unread = () =>
        db
          .selectFrom('bookmark_archives as a')
          .innerJoin('bookmarks as b', (join) => join.onRef('b.id', '=', 'a.bookmark_id').onRef('b.owner_id', '=', 'a.owner_id'))
          .where('a.owner_id', '=', ownerId)
          .where('a.html', 'is not', null)
          .where('b.read_state', '=', 'unread');
      const [count, rows] = await Promise.all([
        unread().select((s) => s.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
        unread()
          .select(['a.bookmark_id', 'a.title', 'b.title as bookmark_title', 'b.link', 'a.byline', 'a.site_name', 'a.kept_at', 'a.attempted_at'])
          .select((s) => s.fn<string | null>('substr', ['a.text', s.lit(1), s.lit(summaryLength)]).as('summary'))
          .orderBy('a.kept_at', 'desc')
          .orderBy('a.bookmark_id', 'desc')
          .limit(size)
          .offset(from)
          .execute(),
      ]);
      return { total: Number(count.total), rows };
    },

    /** The owner's copies and their bytes, leaving out one bookmark's (the copy about to be replaced). */
    async usage(ownerId: string, except?: number): Promise<{ copies: number; bytes: number }> {
      let query = db
        .selectFrom('bookmark_archives')
        .select((s) => [s.fn.countAll<number | string>().as('copies'), s.fn.coalesce(s.fn.sum<number | string>('size'), s.lit(0)).as('bytes')])
        .where('owner_id', '=', ownerId)
        .where('html', 'is not', null);
      if (except !== undefined) query = query.where('bookmark_id', '!=', except);
      const row = await query.executeTakeFirstOrThrow();
      return { copies: Number(row.copies), bytes: Number(row.bytes) };
    },

    /** Fetches a stopped server left under way, to be run again at start. */
    pending(): Promise<Array<Pick<ArchiveRow, 'owner_id' | 'bookmark_id'>>> {
      return db.selectFrom('bookmark_archives').select(['owner_id', 'bookmark_id']).where('status', '=', 'pending').orderBy('attempted_at').execute();
    },
  };
}
export type ArchivesStore = ReturnType<typeof createArchivesStore>;
