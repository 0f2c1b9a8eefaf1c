import { type Kysely, type Transaction, sql } from 'kysely';
import { BOOKMARK_GROUP_COUNT, BOOKMARK_LIMITS, type BookmarkGroup, type BookmarkInput, foldTag } from '../../../contract/bookmarks.ts';
import type { Database } from '../storage/schema.ts';
import { statementSlices } from '../storage/statement-rows.ts';
import { count, type FacetCounts, spelledTags, spellings, tagCounts, writeCounts } from './bookmark-facets.ts';
import { BOOKMARK_COLUMNS, type BookmarkRow, rowFields } from './bookmark-row.ts';

/** A position in the newest-first list: the last row a page showed. */
export type ListPosition = { createDate: number; id: number };

export type ListFilter = {
  tag?: string | undefined;
  /** Epoch ms: from (inclusive) and until (exclusive), on create_date. */
  from?: number | undefined;
  until?: number | undefined;
};

/** What heads the list: its groups, how many bookmarks it holds, and the tag it is filtered by as the owner spells it. */
export type ListSummary = { host_groups: BookmarkGroup[]; tag_groups: BookmarkGroup[]; total: number; tag: string | undefined };

/** A bookmark to write, with the times it carries. */
export type NewBookmark = BookmarkInput & { createDate: number; updateDate: number };

type Db = Kysely<Database> | Transaction<Database>;

const EXPORT_PAGE = 1000;

type TagRow = { bookmark_id: number; owner_id: string; tag: string; create_date: number };

const tagRows = (ownerId: string, id: number, tags: string[], createDate: number): TagRow[] =>
  tags.map((tag) => ({ bookmark_id: id, owner_id: ownerId, tag, create_date: createDate }));

async function insertTags(db: Db, rows: TagRow[]) {
  for (const slice of statementSlices(rows)) await db.insertInto('bookmark_tags').values(slice).execute();
}

/**
 * Inserts those of the bookmarks whose link the owner does not have yet (of a link given twice,
 * the first), with their tags, a few statements for them all, and counts them; the rows written,
 * in the order given. Their tags take the spellings the owner already uses (`known`).
 */
async function insertNew(db: Db, ownerId: string, given: NewBookmark[], known: Map<string, string>, counts: FacetCounts): Promise<BookmarkRow[]> {
  const rows: BookmarkRow[] = [];
  for (const slice of statementSlices(given)) {
    const values = slice.map((bookmark) => ({
      owner_id: ownerId,
      ...rowFields({ ...bookmark, tags: spelledTags(bookmark.tags, known) }),
      create_date: bookmark.createDate,
      update_date: bookmark.updateDate,
    }));
    rows.push(
      ...(await db
        .insertInto('bookmarks')
        .values(values)
        .onConflict((oc) => oc.columns(['owner_id', 'link']).doNothing())
        .returning(['id', ...BOOKMARK_COLUMNS])
        .execute()),
    );
  }
  // RETURNING promises no order; ids are given in the order of the VALUES.
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  const tags = rows.map((row) => JSON.parse(row.tags) as string[]);
  await insertTags(db, rows.flatMap((row, n) => tagRows(ownerId, Number(row.id), tags[n]!, Number(row.create_date))));
  for (const [n, row] of rows.entries()) count(counts, row.host, tags[n]!, 1);
  return rows;
}

/** The owner's most used hosts or tags, ties by name: the first entries of the index `bookmark_facets_top` (0018). */
export function topGroupsQuery(db: Db, ownerId: string, kind: 'host' | 'tag') {
  return db
    .selectFrom('bookmark_facets')
    .select(['key', 'doc_count'])
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where('doc_count', '>', 0)
    .orderBy('doc_count', 'desc')
    .orderBy('key')
    .limit(BOOKMARK_GROUP_COUNT);
}

/** Each user's bookmarks; every query has the owner in its WHERE. */
export function createBookmarksStore(db: Kysely<Database>) {
  const selectRow = (from: Db) => from.selectFrom('bookmarks').select(['id', ...BOOKMARK_COLUMNS]);

  /** Every bookmark that is new to the owner, in one transaction; the rows written, in the order given. */
  async function insertMany(ownerId: string, bookmarks: NewBookmark[]): Promise<BookmarkRow[]> {
    return db.transaction().execute(async (trx) => {
      const counts: FacetCounts = new Map();
      const known = await spellings(trx, ownerId, bookmarks.flatMap((bookmark) => bookmark.tags));
      const rows = await insertNew(trx, ownerId, bookmarks, known, counts);
      await writeCounts(trx, ownerId, counts);
      return rows;
    });
  }

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
      const [row] = await insertMany(ownerId, [bookmark]);
      return row;
    },

    insertMany,

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
        await insertTags(trx, tagRows(ownerId, id, input.tags, Number(old.create_date)));
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
          await insertTags(trx, tagRows(ownerId, id, [tag], Number(row.create_date)));
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

    /** How many of the owner's bookmarks (with the tag, when given) were created within the range: the rows of its index range. */
    async countInRange(ownerId: string, filter: ListFilter): Promise<number> {
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

    /**
     * The list's header from the kept counts, in one read (each read is a round trip to
     * PostgreSQL): the owner's most used hosts and tags over the whole collection, and the number
     * of bookmarks, or of those with `tag`, which comes back spelled as the owner's bookmarks spell
     * it (tags compare case-insensitively).
     */
    async summary(ownerId: string, tag?: string): Promise<ListSummary> {
      const counted =
        tag === undefined
          ? db.selectFrom('bookmark_facets').where('owner_id', '=', ownerId).where('kind', '=', 'all').where('key', '=', '')
          : db
              .selectFrom('bookmark_facets')
              .where('owner_id', '=', ownerId)
              .where('kind', '=', 'tag')
              .where('folded', '=', foldTag(tag))
              .where('doc_count', '>', 0);
      // Each part is ranked within itself: a union keeps no order of its own.
      const part = (name: 'host' | 'tag' | 'total', query: ReturnType<typeof topGroupsQuery>) =>
        db
          .selectFrom(query.as(name))
          .select(['key', 'doc_count', sql.lit(name).as('part'), sql<number>`row_number() over (order by doc_count desc, key)`.as('rank')]);
      const rows = await part('host', topGroupsQuery(db, ownerId, 'host'))
        .unionAll(part('tag', topGroupsQuery(db, ownerId, 'tag')))
        .unionAll(part('total', counted.select(['key', 'doc_count']).orderBy('doc_count', 'desc').limit(1)))
        .execute();
      const groups = (name: 'host' | 'tag') =>
        rows
          .filter((row) => row.part === name)
          .sort((a, b) => Number(a.rank) - Number(b.rank))
          .map((row) => ({ key: row.key, doc_count: Number(row.doc_count) }));
      const total = rows.find((row) => row.part === 'total');
      return {
        host_groups: groups('host'),
        tag_groups: groups('tag'),
        total: Number(total?.doc_count ?? 0),
        tag: tag === undefined ? undefined : (total?.key ?? tag),
      };
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
