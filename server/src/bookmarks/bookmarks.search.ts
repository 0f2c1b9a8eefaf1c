import { randomUUID } from 'node:crypto';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { BOOKMARK_GROUP_COUNT, type BookmarkGroup, type BookmarkSearchField } from '../../../contract/bookmarks.ts';
import type { Database } from '../storage/schema.ts';
import { statementSlices } from '../storage/statement-rows.ts';
import type { BookmarkRow } from './bookmark-row.ts';

/** The per-user search index (DESIGN §4): an entry is what a bookmark was when it was indexed. */
export interface BookmarkIndex {
  get(ownerId: string, id: number): Promise<BookmarkRow | undefined>;
  /** Creates or replaces the entries of these bookmarks, which must be the owner's. */
  put(ownerId: string, rows: BookmarkRow[]): Promise<void>;
  /** Drops the entries of those of `ids` that are the owner's. */
  remove(ownerId: string, ids: number[]): Promise<void>;
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

type Match = { id: number; host: string; tags: string; create_date: number };

/** Most bookmarks first, then by key; the first 20. */
function topGroups(counts: Map<string, number>): BookmarkGroup[] {
  return [...counts]
    .map(([key, doc_count]) => ({ key, doc_count }))
    .sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, BOOKMARK_GROUP_COUNT);
}

/** Sort order: newest first, ties by id, newest first. */
const byNewest = (a: Match, b: Match) => Number(b.create_date) - Number(a.create_date) || Number(b.id) - Number(a.id);
/** Beyond this many, a whole sort costs less than keeping a sorted list. */
const KEPT_IN_ORDER = 1000;

/**
 * The first `count` matches, newest first (ties by id, newest first), kept in a short sorted list
 * as the matches go by: a broad search has tens of thousands, and a page wants ten.
 */
function newestFirst(matches: Match[], count: number): Match[] {
  if (count > KEPT_IN_ORDER) return matches.toSorted(byNewest).slice(0, count);
  const top: Match[] = [];
  for (const match of matches) {
    if (top.length === count && byNewest(match, top[count - 1]!) >= 0) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (byNewest(top[middle]!, match) <= 0) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, match);
    if (top.length > count) top.pop();
  }
  return top;
}

/** An entry's columns as a BookmarkRow, from its short row `i` and its text `c`. */
export const ENTRY_COLUMNS = sql.raw(
  'i.bookmark_id as id, c.title, c.link, i.host, i.tags, c.note, i.create_date, i.update_date',
);

/**
 * Where an engine's matches come from: `from` names the entries `i` (joining its word index as it
 * likes), `match` keeps those with every word.
 */
export type MatchSource = { from: RawBuilder<unknown>; match: RawBuilder<unknown> };

/** Writes the entries' rows and their text, with any columns of an engine's own. */
type ReplaceEntries = (extra?: (row: BookmarkRow) => Record<string, unknown>) => Promise<void>;

/** What an engine adds to the entries that both share: their words. */
export type BookmarkWords = {
  /** Writes the entries, through `replace`, and their words, inside the transaction `trx`. */
  put(trx: Transaction<Database>, ownerId: string, entries: BookmarkRow[], replace: ReplaceEntries): Promise<void>;
  /** Drops the words of the owner's entries among `ids`, and the entries through `removeEntries`. */
  remove(trx: Transaction<Database>, ownerId: string, ids: number[], removeEntries: () => Promise<void>): Promise<void>;
  matches(query: IndexQuery): MatchSource;
  /** The entries' table as a statement that names a few of them by id must read it. */
  entriesById: RawBuilder<unknown>;
};

/** The index over an engine's words. */
export function createBookmarkIndex(db: Kysely<Database>, words: BookmarkWords): BookmarkIndex {
  const rows = indexRows(db, words.entriesById);
  return {
    get: rows.get,
    version: rows.version,

    async put(ownerId, entries) {
      if (entries.length === 0) return;
      await db.transaction().execute((trx) => words.put(trx, ownerId, entries, (extra) => rows.replace(trx, ownerId, entries, extra)));
    },

    async remove(ownerId, ids) {
      if (ids.length === 0) return;
      await db.transaction().execute((trx) => words.remove(trx, ownerId, ids, () => rows.remove(trx, ownerId, ids)));
    },

    search: (ownerId, query) => rows.search(ownerId, query, words.matches(query)),
  };
}

/** What both engines share: the entries' rows and tags, and a search over the engine's matches. */
function indexRows(db: Kysely<Database>, entriesById: RawBuilder<unknown>) {
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

    /** Drops the owner's entries of these ids (their text and tags go with them). */
    async remove(trx: Db, ownerId: string, ids: number[]) {
      await this.drop(trx, ownerId, ids);
      await this.touch(trx, ownerId);
    },

    /** The owner's entries of these ids gone, the version left to the caller. */
    async drop(trx: Db, ownerId: string, ids: number[]) {
      for (const slice of statementSlices(ids)) {
        await sql`delete from ${entriesById} where owner_id = ${ownerId} and bookmark_id in (${sql.join(slice)})`.execute(trx);
      }
    },

    /** A new version of the owner's entries, so that kept results are not used again. */
    async touch(trx: Db, ownerId: string) {
      await trx
        .insertInto('bookmark_index_versions')
        .values({ owner_id: ownerId, version: randomUUID() })
        .onConflict((oc) => oc.column('owner_id').doUpdateSet({ version: (eb) => eb.ref('excluded.version') }))
        .execute();
    },

    /** Drops the old entries, writes the rows (with `extra` columns), their text and their tags. */
    async replace(trx: Db, ownerId: string, rows: BookmarkRow[], extra: (row: BookmarkRow) => Record<string, unknown> = () => ({})) {
      await this.drop(trx, ownerId, rows.map((row) => row.id));
      for (const slice of statementSlices(rows)) {
        await trx
          .insertInto('bookmark_index')
          .values(
            slice.map((row) => ({
              bookmark_id: row.id,
              owner_id: ownerId,
              host: row.host,
              tags: row.tags,
              create_date: row.create_date,
              update_date: row.update_date,
              ...extra(row),
            })),
          )
          .execute();
        await trx
          .insertInto('bookmark_index_content')
          .values(slice.map((row) => ({ bookmark_id: row.id, title: row.title, link: row.link, note: row.note })))
          .execute();
      }
      const tags = rows.flatMap((row) => (JSON.parse(row.tags) as string[]).map((tag) => ({ bookmark_id: row.id, tag })));
      for (const slice of statementSlices(tags)) await trx.insertInto('bookmark_index_tags').values(slice).execute();
      await this.touch(trx, ownerId);
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
      // One walk over the matches' short rows gives the total, both groups and the page's ids;
      // only the page's entries are then read whole.
      const matches = await sql<Match>`select i.bookmark_id as id, i.host, i.tags, i.create_date
        from ${source.from} where ${where}`.execute(db);
      const hosts = new Map<string, number>();
      const tags = new Map<string, number>();
      for (const match of matches.rows) {
        hosts.set(match.host, (hosts.get(match.host) ?? 0) + 1);
        for (const tag of JSON.parse(match.tags) as string[]) tags.set(tag, (tags.get(tag) ?? 0) + 1);
      }
      const ids = newestFirst(matches.rows, query.from + query.size).slice(query.from).map((match) => Number(match.id));
      return {
        total: matches.rows.length,
        rows: await this.entries(ids),
        host_groups: topGroups(hosts),
        tag_groups: topGroups(tags),
      };
    },

    /** The entries of these ids, in their order. */
    async entries(ids: number[]): Promise<BookmarkRow[]> {
      if (ids.length === 0) return [];
      const found = await sql<BookmarkRow>`select ${ENTRY_COLUMNS} from bookmark_index i
        join bookmark_index_content c on c.bookmark_id = i.bookmark_id where i.bookmark_id in (${sql.join(ids)})`.execute(db);
      const byId = new Map(found.rows.map((row) => [Number(row.id), row]));
      return ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
    },
  };
}
