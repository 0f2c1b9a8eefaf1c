import { randomUUID } from 'node:crypto';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { BOOKMARK_GROUP_COUNT, type BookmarkGroup, type BookmarkSearchField } from '../../../contract/bookmarks.ts';
import type { Database } from '../storage/schema.ts';
import type { BookmarkRow } from './bookmark-row.ts';

/** The per-user search index (DESIGN §4): an entry is what a bookmark was when it was indexed. */
export interface BookmarkIndex {
  get(ownerId: string, id: number): Promise<BookmarkRow | undefined>;
  /** Creates or replaces the entries of these bookmarks, which must be the owner's. */
  put(ownerId: string, rows: BookmarkRow[]): Promise<void>;
  search(ownerId: string, query: IndexQuery): Promise<IndexResult>;
  /** Changes whenever the owner's entries change, so that results can be kept until then. */
  version(ownerId: string): Promise<string>;
}

export type IndexQuery = {
  /** Folded words, each matched as a prefix, all required; never empty. */
  terms: string[];
  fields: BookmarkSearchField[];
  hosts?: string[] | undefined;
  tags?: string[] | undefined;
  /** Epoch ms, from inclusive, until exclusive. */
  created?: TimeRange | undefined;
  updated?: TimeRange | undefined;
  from: number;
  size: number;
};
export type TimeRange = { from?: number | undefined; until?: number | undefined };

export type IndexResult = { total: number; rows: BookmarkRow[]; host_groups: BookmarkGroup[]; tag_groups: BookmarkGroup[] };

/** The text each search field indexes, before an engine reduces it to words. */
export function indexedText(row: BookmarkRow): Record<BookmarkSearchField, string> {
  return { title: row.title, link: row.link, note: row.note ?? '', tags: (JSON.parse(row.tags) as string[]).join(' ') };
}

type Db = Kysely<Database> | Transaction<Database>;

/** Most bookmarks first, then by key, as the SQL of the tag groups orders them. */
function topGroups(groups: BookmarkGroup[]): BookmarkGroup[] {
  return groups
    .sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, BOOKMARK_GROUP_COUNT);
}

const ENTRY_COLUMNS = sql.raw(
  'i.bookmark_id as id, c.title, c.link, i.host, c.tags, c.note, i.create_date, i.update_date',
);

/**
 * Where an engine's matches come from: `from` names the entries `i` (joining its word index as it
 * likes), `match` keeps those with every word.
 */
export type MatchSource = { from: RawBuilder<unknown>; match: RawBuilder<unknown> };

/** What both engines share: the entries' rows and tags, and a search over the engine's matches. */
export function indexRows(db: Kysely<Database>) {
  return {
    async version(ownerId: string): Promise<string> {
      const row = await db.selectFrom('bookmark_index_versions').select('version').where('owner_id', '=', ownerId).executeTakeFirst();
      return row?.version ?? 'none';
    },

    async get(ownerId: string, id: number): Promise<BookmarkRow | undefined> {
      const found = await sql<BookmarkRow>`select ${ENTRY_COLUMNS} from bookmark_index i
        join bookmark_index_content c on c.bookmark_id = i.bookmark_id
        where i.owner_id = ${ownerId} and i.bookmark_id = ${id}`.execute(db);
      return found.rows[0];
    },

    /** Drops the old entries, writes the rows (with `extra` columns), their text and their tags. */
    async replace(trx: Db, ownerId: string, rows: BookmarkRow[], extra: (row: BookmarkRow) => Record<string, unknown> = () => ({})) {
      const ids = rows.map((row) => row.id);
      await trx.deleteFrom('bookmark_index').where('owner_id', '=', ownerId).where('bookmark_id', 'in', ids).execute();
      await trx
        .insertInto('bookmark_index')
        .values(
          rows.map((row) => ({
            bookmark_id: row.id,
            owner_id: ownerId,
            host: row.host,
            create_date: row.create_date,
            update_date: row.update_date,
            ...extra(row),
          })),
        )
        .execute();
      await trx
        .insertInto('bookmark_index_content')
        .values(rows.map((row) => ({ bookmark_id: row.id, title: row.title, link: row.link, tags: row.tags, note: row.note })))
        .execute();
      const tags = rows.flatMap((row) => (JSON.parse(row.tags) as string[]).map((tag) => ({ bookmark_id: row.id, tag })));
      for (let start = 0; start < tags.length; start += 500) {
        await trx.insertInto('bookmark_index_tags').values(tags.slice(start, start + 500)).execute();
      }
      await trx
        .insertInto('bookmark_index_versions')
        .values({ owner_id: ownerId, version: randomUUID() })
        .onConflict((oc) => oc.column('owner_id').doUpdateSet({ version: (eb) => eb.ref('excluded.version') }))
        .execute();
    },

    async search(ownerId: string, query: IndexQuery, source: MatchSource): Promise<IndexResult> {
      const conditions = [source.match, sql`i.owner_id = ${ownerId}`];
      if (query.hosts && query.hosts.length > 0) conditions.push(sql`i.host in (${sql.join(query.hosts)})`);
      if (query.tags && query.tags.length > 0) {
        conditions.push(
          sql`exists (select 1 from bookmark_index_tags t where t.bookmark_id = i.bookmark_id and t.tag in (${sql.join(query.tags)}))`,
        );
      }
      for (const [column, range] of [['create_date', query.created], ['update_date', query.updated]] as const) {
        if (range?.from !== undefined) conditions.push(sql`i.${sql.raw(column)} >= ${range.from}`);
        if (range?.until !== undefined) conditions.push(sql`i.${sql.raw(column)} < ${range.until}`);
      }
      const where = sql.join(conditions, sql` and `);
      // Every host's count at once: their sum is the total, so one walk over the matches gives both.
      // The page is chosen by its short rows first, and only its ten entries' text is read.
      const [hosts, page, tags] = await Promise.all([
        sql<BookmarkGroup>`select i.host as key, count(*) as doc_count from ${source.from} where ${where} group by i.host`.execute(db),
        sql<BookmarkRow>`select ${ENTRY_COLUMNS} from (
            select i.bookmark_id from ${source.from} where ${where}
            order by i.create_date desc, i.bookmark_id desc limit ${query.size} offset ${query.from}
          ) p join bookmark_index i on i.bookmark_id = p.bookmark_id join bookmark_index_content c on c.bookmark_id = p.bookmark_id
          order by i.create_date desc, i.bookmark_id desc`.execute(db),
        sql<BookmarkGroup>`select t.tag as key, count(*) as doc_count from ${source.from}
          join bookmark_index_tags t on t.bookmark_id = i.bookmark_id where ${where}
          group by t.tag order by doc_count desc, key limit ${BOOKMARK_GROUP_COUNT}`.execute(db),
      ]);
      const groups = (rows: BookmarkGroup[]) => rows.map((row) => ({ key: row.key, doc_count: Number(row.doc_count) }));
      const hostGroups = groups(hosts.rows);
      return {
        total: hostGroups.reduce((sum, group) => sum + group.doc_count, 0),
        rows: page.rows,
        host_groups: topGroups(hostGroups),
        tag_groups: topGroups(groups(tags.rows)),
      };
    },
  };
}
