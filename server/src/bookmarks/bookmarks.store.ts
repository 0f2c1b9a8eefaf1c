import { type Kysely, type Transaction, sql } from 'kysely';
import { BOOKMARK_GROUP_COUNT, type BookmarkGroup, type BookmarkInput } from '../../../contract/bookmarks.ts';
import type { Database } from '../storage/schema.ts';
import { BOOKMARK_COLUMNS, type BookmarkRow, rowFields } from './bookmark-row.ts';

/** A position in the newest-first list: the last row a page showed. */
export type ListPosition = { createDate: number; id: number };

export type ListFilter = {
  tag?: string | undefined;
  /** Epoch ms: from (inclusive) and until (exclusive), on create_date. */
  from?: number | undefined;
  until?: number | undefined;
};

/** A bookmark to write, with the times it carries. */
export type NewBookmark = BookmarkInput & { createDate: number; updateDate: number };

type Db = Kysely<Database> | Transaction<Database>;
type FacetCounts = Map<string, number>;

const EXPORT_PAGE = 1000;

/** Adds `delta` to the host's and every tag's count. */
function count(counts: FacetCounts, host: string, tags: string[], delta: number) {
  for (const key of [`host ${host}`, ...tags.map((tag) => `tag ${tag}`)]) counts.set(key, (counts.get(key) ?? 0) + delta);
}

async function writeCounts(db: Db, ownerId: string, counts: FacetCounts) {
  const values = [...counts]
    .filter(([, delta]) => delta !== 0)
    .map(([kindKey, delta]) => {
      const space = kindKey.indexOf(' ');
      return { owner_id: ownerId, kind: kindKey.slice(0, space) as 'host' | 'tag', key: kindKey.slice(space + 1), doc_count: delta };
    });
  for (let start = 0; start < values.length; start += 500) {
    await db
      .insertInto('bookmark_facets')
      .values(values.slice(start, start + 500))
      .onConflict((oc) =>
        oc.columns(['owner_id', 'kind', 'key']).doUpdateSet({
          doc_count: (eb) => eb('bookmark_facets.doc_count', '+', eb.ref('excluded.doc_count')),
        }),
      )
      .execute();
  }
}

async function insertTags(db: Db, ownerId: string, id: number, tags: string[], createDate: number) {
  if (tags.length === 0) return;
  await db
    .insertInto('bookmark_tags')
    .values(tags.map((tag) => ({ bookmark_id: id, owner_id: ownerId, tag, create_date: createDate })))
    .execute();
}

/** Inserts unless the owner already has the link; the new id, or undefined for a repeat. */
async function insertOne(db: Db, ownerId: string, bookmark: NewBookmark, counts: FacetCounts): Promise<number | undefined> {
  const fields = rowFields(bookmark);
  const inserted = await db
    .insertInto('bookmarks')
    .values({ owner_id: ownerId, ...fields, create_date: bookmark.createDate, update_date: bookmark.updateDate })
    .onConflict((oc) => oc.columns(['owner_id', 'link']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return undefined;
  const id = Number(inserted.id);
  await insertTags(db, ownerId, id, bookmark.tags, bookmark.createDate);
  count(counts, fields.host, bookmark.tags, 1);
  return id;
}

/** Each user's bookmarks; every query has the owner in its WHERE. */
export function createBookmarksStore(db: Kysely<Database>) {
  const selectRow = (from: Db) => from.selectFrom('bookmarks').select(['id', ...BOOKMARK_COLUMNS]);

  return {
    get(ownerId: string, id: number): Promise<BookmarkRow | undefined> {
      return selectRow(db).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
    },

    /** The new row, or undefined when the owner already has this link. */
    async insert(ownerId: string, bookmark: NewBookmark): Promise<BookmarkRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const counts: FacetCounts = new Map();
        const id = await insertOne(trx, ownerId, bookmark, counts);
        if (id === undefined) return undefined;
        await writeCounts(trx, ownerId, counts);
        return selectRow(trx).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirstOrThrow();
      });
    },

    /** Every bookmark that is new to the owner, in one transaction; the rows written, in file order. */
    async insertMany(ownerId: string, bookmarks: NewBookmark[]): Promise<BookmarkRow[]> {
      return db.transaction().execute(async (trx) => {
        const counts: FacetCounts = new Map();
        const ids: number[] = [];
        for (const bookmark of bookmarks) {
          const id = await insertOne(trx, ownerId, bookmark, counts);
          if (id !== undefined) ids.push(id);
        }
        await writeCounts(trx, ownerId, counts);
        const rows: BookmarkRow[] = [];
        for (let start = 0; start < ids.length; start += 500) {
          rows.push(...(await selectRow(trx).where('owner_id', '=', ownerId).where('id', 'in', ids.slice(start, start + 500)).orderBy('id').execute()));
        }
        return rows;
      });
    },

    /**
     * Replaces the fields; `missing` when the bookmark is not the owner's, `duplicate` when
     * another of the owner's bookmarks has the new link.
     */
    async update(ownerId: string, id: number, input: BookmarkInput, updateDate: number): Promise<BookmarkRow | 'missing' | 'duplicate'> {
      return db.transaction().execute(async (trx) => {
        const old = await selectRow(trx).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
        if (!old) return 'missing';
        const clash = await trx
          .selectFrom('bookmarks')
          .select('id')
          .where('owner_id', '=', ownerId)
          .where('link', '=', input.link)
          .where('id', '!=', id)
          .executeTakeFirst();
        if (clash) return 'duplicate';
        const fields = rowFields(input);
        await trx.updateTable('bookmarks').set({ ...fields, update_date: updateDate }).where('owner_id', '=', ownerId).where('id', '=', id).execute();
        await trx.deleteFrom('bookmark_tags').where('bookmark_id', '=', id).where('owner_id', '=', ownerId).execute();
        await insertTags(trx, ownerId, id, input.tags, Number(old.create_date));
        const counts: FacetCounts = new Map();
        count(counts, old.host, JSON.parse(old.tags) as string[], -1);
        count(counts, fields.host, input.tags, 1);
        await writeCounts(trx, ownerId, counts);
        return selectRow(trx).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirstOrThrow();
      });
    },

    /** Up to `limit` bookmarks newest first, after `after` when given. */
    async page(ownerId: string, filter: ListFilter, after: ListPosition | undefined, limit: number): Promise<BookmarkRow[]> {
      if (filter.tag !== undefined) {
        let query = db
          .selectFrom('bookmark_tags as t')
          .innerJoin('bookmarks as b', 'b.id', 't.bookmark_id')
          .select(['b.id', ...BOOKMARK_COLUMNS.map((column) => `b.${column}` as const)])
          .where('t.owner_id', '=', ownerId)
          .where('t.tag', '=', filter.tag)
          .where('b.owner_id', '=', ownerId);
        if (filter.from !== undefined) query = query.where('t.create_date', '>=', filter.from);
        if (filter.until !== undefined) query = query.where('t.create_date', '<', filter.until);
        if (after) query = query.where(sql<boolean>`(t.create_date, t.bookmark_id) < (${after.createDate}, ${after.id})`);
        return query.orderBy('t.create_date', 'desc').orderBy('t.bookmark_id', 'desc').limit(limit).execute();
      }
      let query = selectRow(db).where('owner_id', '=', ownerId);
      if (filter.from !== undefined) query = query.where('create_date', '>=', filter.from);
      if (filter.until !== undefined) query = query.where('create_date', '<', filter.until);
      if (after) query = query.where(sql<boolean>`(create_date, id) < (${after.createDate}, ${after.id})`);
      return query.orderBy('create_date', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /** The owner's most used hosts and tags over the whole collection. */
    async groups(ownerId: string): Promise<{ host_groups: BookmarkGroup[]; tag_groups: BookmarkGroup[] }> {
      const top = (kind: 'host' | 'tag') =>
        db
          .selectFrom('bookmark_facets')
          .select(['key', 'doc_count'])
          .where('owner_id', '=', ownerId)
          .where('kind', '=', kind)
          .where('doc_count', '>', 0)
          .orderBy('doc_count', 'desc')
          .orderBy('key')
          .limit(BOOKMARK_GROUP_COUNT)
          .execute();
      const [hosts, tags] = await Promise.all([top('host'), top('tag')]);
      const groups = (rows: Array<{ key: string; doc_count: number }>) => rows.map((row) => ({ key: row.key, doc_count: Number(row.doc_count) }));
      return { host_groups: groups(hosts), tag_groups: groups(tags) };
    },

    /** Every bookmark of the owner, oldest first (`create_date`, then id), a page at a time (for the export). */
    async *all(ownerId: string): AsyncIterable<BookmarkRow> {
      for (let after: ListPosition | undefined; ; ) {
        let query = selectRow(db).where('owner_id', '=', ownerId);
        if (after) query = query.where(sql<boolean>`(create_date, id) > (${after.createDate}, ${after.id})`);
        const page = await query.orderBy('create_date').orderBy('id').limit(EXPORT_PAGE).execute();
        yield* page;
        const last = page.at(-1);
        if (!last || page.length < EXPORT_PAGE) return;
        after = { createDate: Number(last.create_date), id: Number(last.id) };
      }
    },
  };
}
export type BookmarksStore = ReturnType<typeof createBookmarksStore>;
