import { type Kysely, type RawBuilder, type SelectQueryBuilder, type Transaction, sql } from 'kysely';
import { BOOKMARK_GROUP_COUNT, BOOKMARK_LIMITS, type BookmarkGroup, type BookmarkInput, type BookmarkState, foldTag } from '../../../contract/bookmarks.ts';
import type { Database } from '../storage/schema.ts';
import type { Dialect } from '../storage/database.ts';
import { insertStatements } from '../storage/statement-rows.ts';
import { count, type FacetCounts, spelledTags, spellings, tagCounts, writeCounts } from './bookmark-facets.ts';
import { BOOKMARK_COLUMNS, type BookmarkRow, rowFields } from './bookmark-row.ts';
import type { FolderRoot } from './netscape-file-reader.ts';

/** A position in the newest-first list: the last row a page showed. */
export type ListPosition = { createDate: number; id: number };

export type ListFilter = {
  tag?: string | undefined;
  /** Epoch ms: from (inclusive) and until (exclusive), on create_date. */
  from?: number | undefined;
  until?: number | undefined;
  /** Only bookmarks in this read-later state. */
  state?: BookmarkState | undefined;
};

/** What heads the list: its groups, how many bookmarks it holds, and the tag it is filtered by as the owner spells it. */
export type ListSummary = { host_groups: BookmarkGroup[]; tag_groups: BookmarkGroup[]; total: number; tag: string | undefined };

/** Where an imported bookmark sat in the browser's tree, and its keyword (0025). */
export type BookmarkPlace = { root: FolderRoot; folder: string[]; keyword: string | undefined };

/** A folder of the owner's bookmarks, and when its oldest was made (epoch ms). */
export type StoredFolder = { root: FolderRoot; folder: string[]; first: number };

/** A bookmark to write, with the times it carries, and where it sat when it comes from a file. */
export type NewBookmark = BookmarkInput & {
  createDate: number;
  updateDate: number;
  place?: BookmarkPlace | undefined;
  /** Unread when not given: a bookmark is saved to be read. */
  state?: BookmarkState | undefined;
};

type Db = Kysely<Database> | Transaction<Database>;

const EXPORT_PAGE = 1000;

type TagRow = { bookmark_id: number; owner_id: string; tag: string; create_date: number };

const tagRows = (ownerId: string, id: number, tags: string[], createDate: number): TagRow[] =>
  tags.map((tag) => ({ bookmark_id: id, owner_id: ownerId, tag, create_date: createDate }));

const TAG_TYPES = { bookmark_id: 'bigint', owner_id: 'text', tag: 'text', create_date: 'bigint' };

async function insertTags(db: Db, dialect: Dialect, rows: TagRow[]) {
  for (const insert of insertStatements(db, dialect, 'bookmark_tags', rows, TAG_TYPES)) await insert.execute();
}

/** The PostgreSQL types of a bookmark's columns, as an import writes them (statement-rows.ts). */
const BOOKMARK_TYPES = {
  owner_id: 'text', title: 'text', link: 'text', link_key: 'text', host: 'text', tags: 'text', note: 'text',
  create_date: 'bigint', update_date: 'bigint', folder_root: 'text', folder: 'text', keyword: 'text', read_state: 'text',
};

/**
 * Inserts those of the bookmarks whose link the owner does not have yet (of a link given twice,
 * the first), with their tags, a few statements for them all, and counts them; the rows written,
 * in the order given. Their tags take the spellings the owner already uses (`known`).
 */
async function insertNew(
  db: Db,
  dialect: Dialect,
  ownerId: string,
  given: NewBookmark[],
  known: Map<string, string>,
  counts: FacetCounts,
): Promise<BookmarkRow[]> {
  const rows: BookmarkRow[] = [];
  const values = given.map((bookmark) => ({
    owner_id: ownerId,
    ...rowFields({ ...bookmark, tags: spelledTags(bookmark.tags, known) }),
    create_date: bookmark.createDate,
    update_date: bookmark.updateDate,
    // The columns' defaults (0025), written out: every row of a statement of arrays has them all.
    folder_root: bookmark.place?.root ?? '',
    folder: JSON.stringify(bookmark.place?.folder ?? []),
    keyword: bookmark.place?.keyword ?? null,
    read_state: bookmark.state ?? 'unread',
  }));
  for (const insert of insertStatements(db, dialect, 'bookmarks', values, BOOKMARK_TYPES)) {
    rows.push(
      ...(await insert
        .onConflict((oc) => oc.columns(['owner_id', 'link']).doNothing())
        .returning(['id', ...BOOKMARK_COLUMNS])
        .execute()),
    );
  }
  // RETURNING promises no order; ids are given in the order of the rows.
  rows.sort((a, b) => Number(a.id) - Number(b.id));
  const tags = rows.map((row) => JSON.parse(row.tags) as string[]);
  await insertTags(db, dialect, rows.flatMap((row, n) => tagRows(ownerId, Number(row.id), tags[n]!, Number(row.create_date))));
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

/** Which part of the list a row of `summaryAndPage` is. */
type Part = 'host' | 'tag' | 'total' | 'row';

/** A bookmark's columns, empty, in the rows of the list's header (`summaryAndPage`). */
const EMPTY_ROW = [
  sql<number | null>`cast(null as bigint)`.as('id'),
  ...(['title', 'link', 'host', 'tags', 'note'] as const).map((column) => sql<string | null>`cast(null as text)`.as(column)),
  ...(['create_date', 'update_date'] as const).map((column) => sql<number | null>`cast(null as bigint)`.as(column)),
  sql<BookmarkState | null>`cast(null as text)`.as('read_state'),
];

/** Each user's bookmarks; every query has the owner in its WHERE. */
export function createBookmarksStore(db: Kysely<Database>, dialect: Dialect) {
  const selectRow = (from: Db) => from.selectFrom('bookmarks').select(['id', ...BOOKMARK_COLUMNS]);

  /**
   * Up to `limit` of the owner's bookmarks newest first, after `after` when given: by the index of
   * the owner's list, or of the tag's, which `filter.tag` names as the owner spells it (or as an
   * expression that gives that spelling).
   */
  function pageQuery(
    ownerId: string,
    filter: Omit<ListFilter, 'tag'> & { tag?: string | RawBuilder<string> | undefined },
    after: ListPosition | undefined,
    limit: number,
  ) {
    if (filter.tag !== undefined) {
      let query = db
        .selectFrom('bookmark_tags as t')
        .innerJoin('bookmarks as b', 'b.id', 't.bookmark_id')
        .select(['b.id', ...BOOKMARK_COLUMNS.map((column) => `b.${column}` as const)])
        .where('t.owner_id', '=', ownerId)
        .where('t.tag', '=', filter.tag)
        .where('b.owner_id', '=', ownerId);
      if (filter.state !== undefined) query = query.where('b.read_state', '=', filter.state);
      if (filter.from !== undefined) query = query.where('t.create_date', '>=', filter.from);
      if (filter.until !== undefined) query = query.where('t.create_date', '<', filter.until);
      if (after) query = query.where(sql<boolean>`(t.create_date, t.bookmark_id) < (${after.createDate}, ${after.id})`);
      return query.orderBy('t.create_date', 'desc').orderBy('t.bookmark_id', 'desc').limit(limit);
    }
    let query = selectRow(db).where('owner_id', '=', ownerId);
    if (filter.state !== undefined) query = query.where('read_state', '=', filter.state);
    if (filter.from !== undefined) query = query.where('create_date', '>=', filter.from);
    if (filter.until !== undefined) query = query.where('create_date', '<', filter.until);
    if (after) query = query.where(sql<boolean>`(create_date, id) < (${after.createDate}, ${after.id})`);
    return query.orderBy('create_date', 'desc').orderBy('id', 'desc').limit(limit);
  }

  /**
   * Every bookmark that is new to the owner, in one transaction, with whatever `alongside` writes
   * of the rows in it (their index entries): all of it is stored, or none. The rows written, in
   * the order given.
   */
  async function insertMany(
    ownerId: string,
    bookmarks: NewBookmark[],
    alongside: (trx: Transaction<Database>, rows: BookmarkRow[]) => Promise<void> = async () => {},
  ): Promise<BookmarkRow[]> {
    return db.transaction().execute(async (trx) => {
      const counts: FacetCounts = new Map();
      const known = await spellings(trx, ownerId, bookmarks.flatMap((bookmark) => bookmark.tags));
      const rows = await insertNew(trx, dialect, ownerId, bookmarks, known, counts);
      await writeCounts(trx, dialect, ownerId, counts);
      await alongside(trx, rows);
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
        await insertTags(trx, dialect, tagRows(ownerId, id, input.tags, Number(old.create_date)));
        const counts: FacetCounts = new Map();
        count(counts, old.host, oldTags, -1);
        count(counts, fields.host, input.tags, 1);
        await writeCounts(trx, dialect, ownerId, counts);
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
        await writeCounts(trx, dialect, ownerId, counts);
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
          await insertTags(trx, dialect, tagRows(ownerId, id, [tag], Number(row.create_date)));
          count(counts, null, [tag], 1);
          changed.push(id);
        }
        await writeCounts(trx, dialect, ownerId, counts);
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
     * How many of the owner's bookmarks (with the tag, and in the state, when given) were created
     * within the range: the rows of its index range (`bookmarks_read_state` for a state, 0034).
     */
    async countInRange(ownerId: string, filter: ListFilter): Promise<number> {
      const { tag, state, from, until } = filter;
      if (tag !== undefined && state === undefined) {
        let query = db.selectFrom('bookmark_tags').where('owner_id', '=', ownerId).where('tag', '=', tag);
        if (from !== undefined) query = query.where('create_date', '>=', from);
        if (until !== undefined) query = query.where('create_date', '<', until);
        return Number((await query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow()).total);
      }
      let query = db.selectFrom('bookmarks as b').where('b.owner_id', '=', ownerId);
      if (state !== undefined) query = query.where('b.read_state', '=', state);
      if (tag !== undefined) {
        query = query.where((eb) =>
          eb.exists(eb.selectFrom('bookmark_tags as t').select('t.bookmark_id').whereRef('t.bookmark_id', '=', 'b.id').where('t.tag', '=', tag)),
        );
      }
      if (from !== undefined) query = query.where('b.create_date', '>=', from);
      if (until !== undefined) query = query.where('b.create_date', '<', until);
      return Number((await query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow()).total);
    },

    /**
     * The owner's bookmarks in one of `states` (and with one of `tags`, spelled as stored, when
     * given), newest first, `limit` of them after `offset`, and how many there are: linkding's
     * offset pages (`bookmarks_read_state`, 0034).
     */
    async pageOfStates(
      ownerId: string,
      filter: { states: BookmarkState[]; tags?: string[] | undefined },
      offset: number,
      limit: number,
    ): Promise<{ total: number; rows: BookmarkRow[] }> {
      const { states, tags } = filter;
      const matching = <Q extends SelectQueryBuilder<Database, 'bookmarks', object>>(query: Q): Q => {
        const inStates = query.where('bookmarks.owner_id', '=', ownerId).where('bookmarks.read_state', 'in', states) as Q;
        if (!tags || tags.length === 0) return inStates;
        return inStates.where((eb) =>
          eb.exists(
            eb
              .selectFrom('bookmark_tags as t')
              .select('t.bookmark_id')
              .whereRef('t.bookmark_id', '=', 'bookmarks.id')
              .where('t.owner_id', '=', ownerId)
              .where('t.tag', 'in', tags),
          ),
        ) as Q;
      };
      const counted = await matching(db.selectFrom('bookmarks'))
        .select((eb) => eb.fn.countAll<number | string>().as('total'))
        .executeTakeFirstOrThrow();
      const rows = await matching(selectRow(db)).orderBy('create_date', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
      return { total: Number(counted.total), rows };
    },

    /** Every tag of the owner with when it was first given (epoch ms), for linkding's tag list. */
    async tagsFirstGiven(ownerId: string): Promise<Array<{ tag: string; first: number }>> {
      const rows = await db
        .selectFrom('bookmark_tags')
        .select(['tag', (eb) => eb.fn.min('create_date').as('first')])
        .where('owner_id', '=', ownerId)
        .groupBy('tag')
        .execute();
      return rows.map((row) => ({ tag: row.tag, first: Number(row.first) }));
    },

    /**
     * Puts those of `ids` that are the owner's in `state`, with whatever `alongside` writes of them
     * (their index entries) in the same transaction; the rows changed, as they are now. The update
     * time stays: reading a bookmark does not edit it.
     */
    async setState(
      ownerId: string,
      ids: number[],
      state: BookmarkState,
      alongside: (trx: Transaction<Database>, ids: number[]) => Promise<void> = async () => {},
    ): Promise<BookmarkRow[]> {
      return db.transaction().execute(async (trx) => {
        const changed = await trx
          .updateTable('bookmarks')
          .set({ read_state: state })
          .where('owner_id', '=', ownerId)
          .where('id', 'in', ids)
          .returning('id')
          .execute();
        if (changed.length === 0) return [];
        const changedIds = changed.map((row) => Number(row.id));
        await alongside(trx, changedIds);
        return selectRow(trx).where('owner_id', '=', ownerId).where('id', 'in', changedIds).orderBy('id').execute();
      });
    },

    /** Up to `limit` bookmarks newest first, after `after` when given. */
    page(ownerId: string, filter: ListFilter, after: ListPosition | undefined, limit: number): Promise<BookmarkRow[]> {
      return pageQuery(ownerId, filter, after, limit).execute();
    },

    /**
     * The list's header from the kept counts: the owner's most used hosts and tags over the whole
     * collection, and the number of bookmarks, or of those with `tag`, which comes back spelled as
     * the owner's bookmarks spell it (tags compare case-insensitively).
     */
    async summary(ownerId: string, tag?: string): Promise<ListSummary> {
      return (await this.summaryAndPage(ownerId, tag, undefined)).summary;
    },

    /**
     * The list's header (`summary`) and, when `page` is given, its page of bookmarks with the tag
     * spelled as the header finds it, in one statement: each is a round trip to PostgreSQL, on a
     * busy machine several milliseconds of a page's few.
     */
    async summaryAndPage(
      ownerId: string,
      tag: string | undefined,
      page: { filter: Omit<ListFilter, 'tag'>; after: ListPosition | undefined; limit: number } | undefined,
    ): Promise<{ summary: ListSummary; rows: BookmarkRow[] }> {
      const counted =
        tag === undefined
          ? db.selectFrom('bookmark_facets').where('owner_id', '=', ownerId).where('kind', '=', 'all').where('key', '=', '')
          : db
              .selectFrom('bookmark_facets')
              .where('owner_id', '=', ownerId)
              .where('kind', '=', 'tag')
              .where('folded', '=', foldTag(tag))
              .where('doc_count', '>', 0);
      const total = counted.select(['key', 'doc_count']).orderBy('doc_count', 'desc').limit(1);
      // Each part is ranked within itself: a union keeps no order of its own. The page's columns are
      // empty in the header's rows, and the header's in the page's.
      const part = (name: 'host' | 'tag' | 'total', query: ReturnType<typeof topGroupsQuery>) =>
        db
          .selectFrom(query.as(name))
          .select([
            sql<Part>`${sql.lit(name)}`.as('part'),
            sql<number>`row_number() over (order by doc_count desc, key)`.as('rank'),
            'key',
            'doc_count',
            ...EMPTY_ROW,
          ]);
      let statement = part('host', topGroupsQuery(db, ownerId, 'host'))
        .unionAll(part('tag', topGroupsQuery(db, ownerId, 'tag')))
        .unionAll(part('total', total));
      if (page) {
        // The tag as the owner spells it: the key of the header's total.
        const spelled = tag === undefined ? undefined : sql<string>`coalesce((${total.clearSelect().select('key')}), ${tag})`;
        const rows = pageQuery(ownerId, { ...page.filter, tag: spelled }, page.after, page.limit);
        statement = statement.unionAll(
          db
            .selectFrom(rows.as('page'))
            .select([
              sql<Part>`${sql.lit('row')}`.as('part'),
              sql<number>`row_number() over (order by create_date desc, id desc)`.as('rank'),
              sql<string>`cast(null as text)`.as('key'),
              sql<number>`cast(null as bigint)`.as('doc_count'),
              'id',
              ...BOOKMARK_COLUMNS,
            ]),
        );
      }
      const found = (await statement.execute()).sort((a, b) => Number(a.rank) - Number(b.rank));
      const of = (name: Part) => found.filter((row) => row.part === name);
      const groups = (name: 'host' | 'tag') => of(name).map((row) => ({ key: row.key, doc_count: Number(row.doc_count) }));
      const counts = of('total')[0];
      return {
        summary: {
          host_groups: groups('host'),
          tag_groups: groups('tag'),
          total: Number(counts?.doc_count ?? 0),
          tag: tag === undefined ? undefined : (counts?.key ?? tag),
        },
        rows: of('row').map(({ id, title, link, host, tags, note, create_date, update_date, read_state }) => ({
          id: id!,
          title: title!,
          link: link!,
          host: host!,
          tags: tags!,
          note,
          create_date: create_date!,
          update_date: update_date!,
          read_state: read_state!,
        })),
      };
    },

    /**
     * The owner's folders that hold bookmarks (the browser roots and folders imported bookmarks
     * came from), each with the date of its oldest bookmark: the export's tree.
     */
    async folders(ownerId: string): Promise<StoredFolder[]> {
      const rows = await db
        .selectFrom('bookmarks')
        .select(['folder_root', 'folder', (eb) => eb.fn.min('create_date').as('first')])
        .where('owner_id', '=', ownerId)
        .groupBy(['folder_root', 'folder'])
        .execute();
      return rows.map((row) => ({ root: row.folder_root as FolderRoot, folder: JSON.parse(row.folder) as string[], first: Number(row.first) }));
    },

    /** The bookmarks of one folder, oldest first (`create_date`, then id), a page at a time, with their keywords (for the export). */
    async *inFolder(ownerId: string, root: FolderRoot, folder: string[]): AsyncIterable<BookmarkRow & { keyword: string | null }> {
      for (let after: ListPosition | undefined; ; ) {
        let query = db
          .selectFrom('bookmarks')
          .select(['id', ...BOOKMARK_COLUMNS, 'keyword'])
          .where('owner_id', '=', ownerId)
          .where('folder_root', '=', root)
          .where('folder', '=', JSON.stringify(folder));
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
