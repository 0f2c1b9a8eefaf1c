import { type Kysely, type Transaction, sql } from 'kysely';
import { BOOKMARK_GROUP_COUNT, BOOKMARK_LIMITS, type BookmarkGroup, type BookmarkInput, foldTag } from '../../../contract/bookmarks.ts';
import type { Database } from '../storage/schema.ts';
import { count, type FacetCounts, facetTotal, spelledTags, spellings, tagCounts, writeCounts } from './bookmark-facets.ts';
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

const EXPORT_PAGE = 1000;

async function insertTags(db: Db, ownerId: string, id: number, tags: string[], createDate: number) {
  if (tags.length === 0) return;
  await db
    .insertInto('bookmark_tags')
    .values(tags.map((tag) => ({ bookmark_id: id, owner_id: ownerId, tag, create_date: createDate })))
    .execute();
}

/**
 * Inserts unless the owner already has the link; the new id, or undefined for a repeat. Its tags
 * take the spellings the owner already uses (`known`).
 */
async function insertOne(db: Db, ownerId: string, given: NewBookmark, counts: FacetCounts, known: Map<string, string>): Promise<number | undefined> {
  const bookmark = { ...given, tags: spelledTags(given.tags, known) };
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

    /** The owner's oldest bookmark whose link compares equal to this one (`link-key.ts`). */
    findByLinkKey(ownerId: string, key: string): Promise<BookmarkRow | undefined> {
      return selectRow(db).where('owner_id', '=', ownerId).where('link_key', '=', key).orderBy('id').limit(1).executeTakeFirst();
    },

    /** The new row, or undefined when the owner already has this link. */
    async insert(ownerId: string, bookmark: NewBookmark): Promise<BookmarkRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const counts: FacetCounts = new Map();
        const id = await insertOne(trx, ownerId, bookmark, counts, await spellings(trx, ownerId, bookmark.tags));
        if (id === undefined) return undefined;
        await writeCounts(trx, ownerId, counts);
        return selectRow(trx).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirstOrThrow();
      });
    },

    /** Every bookmark that is new to the owner, in one transaction; the rows written, in file order. */
    async insertMany(ownerId: string, bookmarks: NewBookmark[]): Promise<BookmarkRow[]> {
      return db.transaction().execute(async (trx) => {
        const counts: FacetCounts = new Map();
        const known = await spellings(trx, ownerId, bookmarks.flatMap((bookmark) => bookmark.tags));
        const ids: number[] = [];
        for (const bookmark of bookmarks) {
          const id = await insertOne(trx, ownerId, bookmark, counts, known);
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
    async update(ownerId: string, id: number, given: BookmarkInput, updateDate: number): Promise<BookmarkRow | 'missing' | 'duplicate'> {
      return db.transaction().execute(async (trx) => {
        const old = await selectRow(trx).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
        if (!old) return 'missing';
        const oldTags = JSON.parse(old.tags) as string[];
        const input = { ...given, tags: spelledTags(given.tags, await spellings(trx, ownerId, given.tags, oldTags)) };
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
        count(counts, old.host, oldTags, -1);
        count(counts, fields.host, input.tags, 1);
        await writeCounts(trx, ownerId, counts);
        return selectRow(trx).where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirstOrThrow();
      });
    },

    /** Deletes those of `ids` that are the owner's; the rows deleted. */
    async delete(ownerId: string, ids: number[]): Promise<BookmarkRow[]> {
      return db.transaction().execute(async (trx) => {
        const rows = await selectRow(trx).where('owner_id', '=', ownerId).where('id', 'in', ids).execute();
        if (rows.length === 0) return [];
        await trx.deleteFrom('bookmarks').where('owner_id', '=', ownerId).where('id', 'in', ids).execute();
        const counts: FacetCounts = new Map();
        for (const row of rows) count(counts, row.host, JSON.parse(row.tags) as string[], -1);
        await writeCounts(trx, ownerId, counts);
        return rows;
      });
    },

    /**
     * Adds the tag to those of `ids` that are the owner's and lack it (in any case) and have room
     * for one more; the rows changed, as they are now.
     */
    async addTag(ownerId: string, ids: number[], given: string, updateDate: number): Promise<BookmarkRow[]> {
      return db.transaction().execute(async (trx) => {
        const [tag] = spelledTags([given], await spellings(trx, ownerId, [given]));
        const rows = await selectRow(trx).where('owner_id', '=', ownerId).where('id', 'in', ids).execute();
        const counts: FacetCounts = new Map();
        const changed: number[] = [];
        for (const row of rows) {
          const tags = JSON.parse(row.tags) as string[];
          if (!tag || tags.length >= BOOKMARK_LIMITS.tags || tags.some((one) => foldTag(one) === foldTag(tag))) continue;
          const id = Number(row.id);
          await trx
            .updateTable('bookmarks')
            .set({ tags: JSON.stringify([...tags, tag]), update_date: updateDate })
            .where('owner_id', '=', ownerId)
            .where('id', '=', id)
            .execute();
          await insertTags(trx, ownerId, id, [tag], Number(row.create_date));
          count(counts, null, [tag], 1);
          changed.push(id);
        }
        await writeCounts(trx, ownerId, counts);
        if (changed.length === 0) return [];
        return selectRow(trx).where('owner_id', '=', ownerId).where('id', 'in', changed).orderBy('id').execute();
      });
    },

    /** The spelling the owner's bookmarks give this tag (compared case-insensitively), else the tag as given. */
    async spelling(ownerId: string, tag: string): Promise<string> {
      return (await spellings(db, ownerId, [tag])).get(foldTag(tag)) ?? tag;
    },

    /** Every tag of the owner with its count, most used first. */
    tags(ownerId: string): Promise<Array<{ tag: string; count: number }>> {
      return tagCounts(db, ownerId);
    },

    /**
     * How many bookmarks the list's filter matches. Without dates it is read from the kept counts
     * (one short read, however many bookmarks); a date range counts the rows of its index range.
     */
    async total(ownerId: string, filter: ListFilter): Promise<number> {
      if (filter.from === undefined && filter.until === undefined) return facetTotal(db, ownerId, filter.tag);
      const range = <Q extends { where: (column: 'create_date', op: '>=' | '<', value: number) => Q }>(query: Q) => {
        let bounded = query;
        if (filter.from !== undefined) bounded = bounded.where('create_date', '>=', filter.from);
        if (filter.until !== undefined) bounded = bounded.where('create_date', '<', filter.until);
        return bounded;
      };
      const query =
        filter.tag === undefined
          ? range(db.selectFrom('bookmarks').where('owner_id', '=', ownerId).select((eb) => eb.fn.countAll<number | string>().as('total')))
          : range(
              db
                .selectFrom('bookmark_tags')
                .where('owner_id', '=', ownerId)
                .where('tag', '=', filter.tag)
                .select((eb) => eb.fn.countAll<number | string>().as('total')),
            );
      return Number((await query.executeTakeFirstOrThrow()).total);
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
