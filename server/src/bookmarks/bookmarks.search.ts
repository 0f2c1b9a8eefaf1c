import { randomUUID } from 'node:crypto';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import {
  BOOKMARK_GROUP_COUNT,
  BOOKMARK_INDEXED_FIELDS,
  type BookmarkGroup,
  type BookmarkIndexedField,
  type BookmarkSearchField,
  type BookmarkState,
} from '../../../contract/bookmarks.ts';
import { SNIPPET_MATCH_END, SNIPPET_MATCH_START } from '../../../contract/text-snippet.ts';
import { snippetOf } from '../search/text-snippet.ts';
import type { Database } from '../storage/schema.ts';
import type { Dialect } from '../storage/database.ts';
import { insertStatements, statementSlices } from '../storage/statement-rows.ts';
import type { BookmarkRow } from './bookmark-row.ts';

/** The per-user search index (docs/behaviour/bookmarks.md): an entry is what a bookmark was when it was indexed. */
export interface BookmarkIndex {
  get(ownerId: string, id: number): Promise<BookmarkRow | undefined>;
  /**
   * Creates or replaces the entries of these bookmarks, which must be the owner's: in the
   * transaction `trx` when given (an import writes a batch of bookmarks and their entries at once,
   * so that a crash never leaves one without the other), else in one of its own.
   */
  put(ownerId: string, rows: BookmarkRow[], trx?: Transaction<Database>): Promise<void>;
  /**
   * Puts the owner's entries among `ids` in `state`, in the transaction `trx` that changes the
   * bookmarks themselves: a search filtered by state sees what the lists see.
   */
  setState(ownerId: string, ids: number[], state: BookmarkState, trx: Transaction<Database>): Promise<void>;
  /** Drops the entries of those of `ids` that are the owner's. */
  remove(ownerId: string, ids: number[]): Promise<void>;
  /** The result, with the owner's index version at which it was found, in one statement. */
  search(ownerId: string, query: IndexQuery): Promise<VersionedResult>;
  /** Changes whenever the owner's entries change, so that results can be kept until then. */
  version(ownerId: string): Promise<string>;
  /** After an import: the database's upkeep of the bookmarks' tables brought up to date, where its plans depend on it. */
  settle(): Promise<void>;
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
  /** Only entries in one of these read-later states. */
  states?: BookmarkState[] | undefined;
  from: number;
  size: number;
};
export type TimeRange = { from?: number | undefined; until?: number | undefined };

export type IndexResult = {
  total: number;
  rows: BookmarkRow[];
  host_groups: BookmarkGroup[];
  tag_groups: BookmarkGroup[];
  /** By bookmark id, for the rows found by their kept page's text (text-snippet.ts). */
  snippets?: Record<string, string>;
};
/** A result and the owner's index version it was found at (`version`). */
export type VersionedResult = IndexResult & { version: string };

/** The text each search field indexes, before an engine reduces it to words. */
export function indexedText(row: BookmarkRow): Record<BookmarkIndexedField, string> {
  return { title: row.title, link: row.link, note: row.note ?? '', tags: (JSON.parse(row.tags) as string[]).join(' ') };
}

type Db = Kysely<Database> | Transaction<Database>;

/**
 * A new version of the owner's entries, so that kept results are not used again: after any write
 * of what a search reads, a kept page's words (bookmark-page-words.ts) among them.
 */
export async function touchIndexVersion(trx: Db, ownerId: string): Promise<void> {
  await trx
    .insertInto('bookmark_index_versions')
    .values({ owner_id: ownerId, version: randomUUID() })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet({ version: (eb) => eb.ref('excluded.version') }))
    .execute();
}

/** Most bookmarks first, then by key; the first 20. */
function topGroups(counts: Map<string, number>): BookmarkGroup[] {
  return [...counts]
    .map(([key, doc_count]) => ({ key, doc_count }))
    .sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, BOOKMARK_GROUP_COUNT);
}

/**
 * The characters of a kept page's text that are indexed, on both engines (docs/behaviour/bookmarks.md):
 * sixteen times the 30 KB of a long article, so that a page kept whole (a manual, a thread) is found
 * by its first half-million characters and costs the index no more.
 */
export const INDEXED_PAGE_CHARS = 500_000;

/** The chosen fields of the entries' own, and whether the kept pages' text is chosen too. */
export function chosenFields(fields: readonly BookmarkSearchField[]): { entry: BookmarkIndexedField[]; page: boolean } {
  return { entry: BOOKMARK_INDEXED_FIELDS.filter((field) => fields.includes(field)), page: fields.includes('text') };
}

/** Sort order: newest first, ties by id, newest first. */
const byNewest = (a: BookmarkRow, b: BookmarkRow) => Number(b.create_date) - Number(a.create_date) || Number(b.id) - Number(a.id);

/**
 * A row of a search's one statement: the owner's index version (`host` holds it), a count (in
 * `id`) of the matches, of one host's or of one tag's (in `host`), or one of the page's entries whole.
 */
type SearchRow = BookmarkRow & { part: 'version' | 'total' | 'host' | 'tag' | 'row'; by_page: number | null };

/** An entry's columns as a BookmarkRow, from its short row `i` and its text `c`. */
export const ENTRY_COLUMNS = sql.raw(
  'i.bookmark_id as id, c.title, c.link, i.host, i.tags, c.note, i.create_date, i.update_date, i.read_state',
);

/**
 * Where an engine's matches come from: `from` names the entries `i` (joining its word index as it
 * likes), `match` keeps those with every word.
 */
export type MatchSource = {
  from: RawBuilder<unknown>;
  match: RawBuilder<unknown>;
  /** 1 for an entry found by its kept page's words (all of them there), else 0: which rows get a snippet. */
  byPage: RawBuilder<unknown>;
};

/** Columns of an engine's own in the entries' rows: their PostgreSQL types (statement-rows.ts) and each row's values. */
export type ExtraColumns = { types: Record<string, string>; values: (row: BookmarkRow) => Record<string, unknown> };

/** Writes the entries' rows and their text, with any columns of an engine's own. */
type ReplaceEntries = (extra?: ExtraColumns) => Promise<void>;

/** What an engine adds to the entries that both share: their words. */
export type BookmarkWords = {
  dialect: Dialect;
  /** Writes the entries, through `replace`, and their words, inside the transaction `trx`. */
  put(trx: Transaction<Database>, ownerId: string, entries: BookmarkRow[], replace: ReplaceEntries): Promise<void>;
  /** Drops the words of the owner's entries among `ids`, and the entries through `removeEntries`. */
  remove(trx: Transaction<Database>, ownerId: string, ids: number[], removeEntries: () => Promise<void>): Promise<void>;
  /**
   * With the page text chosen, a bookmark matches when all the terms are in its chosen entry
   * fields, or all of them in its kept page's text: each side through its own word index.
   */
  matches(ownerId: string, query: IndexQuery): MatchSource;
  /** The entries' table as a statement that names a few of them by id must read it. */
  entriesById: RawBuilder<unknown>;
  settle(): Promise<void>;
};

/** The index over an engine's words. */
export function createBookmarkIndex(db: Kysely<Database>, words: BookmarkWords): BookmarkIndex {
  const rows = indexRows(db, words.dialect, words.entriesById);
  return {
    get: rows.get,
    version: rows.version,

    async put(ownerId, entries, given) {
      if (entries.length === 0) return;
      const write = (trx: Transaction<Database>) => words.put(trx, ownerId, entries, (extra) => rows.replace(trx, ownerId, entries, extra));
      await (given ? write(given) : db.transaction().execute(write));
    },

    async remove(ownerId, ids) {
      if (ids.length === 0) return;
      await db.transaction().execute((trx) => words.remove(trx, ownerId, ids, () => rows.remove(trx, ownerId, ids)));
    },

    async search(ownerId, query) {
      const { byPage, ...result } = await rows.search(ownerId, query, words.matches(ownerId, query));
      if (!chosenFields(query.fields).page) return result;
      return { ...result, snippets: await pageSnippets(db, ownerId, byPage, query) };
    },

    async setState(ownerId, ids, state, trx) {
      if (ids.length === 0) return;
      for (const slice of statementSlices(ids)) {
        await trx.updateTable('bookmark_index').set({ read_state: state }).where('owner_id', '=', ownerId).where('bookmark_id', 'in', slice).execute();
      }
      await rows.touch(trx, ownerId);
    },

    settle: words.settle,
  };
}

/**
 * The kept pages' texts of the owner's `ids`, each looked up by its id. Written as a join from the
 * ids, because SQLite, which keeps no statistics here, took `owner_id = ?` for the narrower
 * condition over `bookmark_id in (…)` and walked every kept page of the owner: 25 ms of every
 * search at 20,000 kept pages, where the ten lookups take 1 ms.
 */
export function pageTexts(ownerId: string, ids: readonly number[]) {
  const wanted = sql.join(ids.map((id) => sql`(cast(${id} as bigint))`));
  return sql<{ bookmark_id: number | string; text: string }>`select a.bookmark_id, a.text from (values ${wanted}) v
    join bookmark_archives a on a.bookmark_id = v.column1
    where a.owner_id = ${ownerId} and a.text is not null`;
}

/**
 * Snippets of the kept pages of `ids`, the page's rows found by their text, each cut around the
 * first of the terms from the part of the text that is indexed. They are few (a page of results),
 * their texts read with the owner check in the statement.
 */
async function pageSnippets(db: Kysely<Database>, ownerId: string, ids: number[], query: IndexQuery) {
  const snippets: Record<string, string> = {};
  if (ids.length === 0) return snippets;
  const found = await pageTexts(ownerId, ids).execute(db);
  for (const { bookmark_id: id, text } of found.rows) {
    // The marks are the snippet's own: a page's control characters are only spaces to it.
    const snippet = snippetOf(text.slice(0, INDEXED_PAGE_CHARS).replaceAll(SNIPPET_MATCH_START, ' ').replaceAll(SNIPPET_MATCH_END, ' '), query.terms);
    if (snippet !== undefined) snippets[String(id)] = snippet;
  }
  return snippets;
}

/** The PostgreSQL types of the entries' columns (statement-rows.ts). */
const ENTRY_TYPES = {
  bookmark_id: 'bigint', owner_id: 'text', host: 'text', tags: 'text', create_date: 'bigint', update_date: 'bigint', read_state: 'text',
};
const CONTENT_TYPES = { bookmark_id: 'bigint', title: 'text', link: 'text', note: 'text' };
const TAG_TYPES = { bookmark_id: 'bigint', tag: 'text' };

/** What both engines share: the entries' rows and tags, and a search over the engine's matches. */
function indexRows(db: Kysely<Database>, dialect: Dialect, entriesById: RawBuilder<unknown>) {
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
    touch: touchIndexVersion,

    /** Drops the old entries, writes the rows (with `extra` columns), their text and their tags. */
    async replace(trx: Db, ownerId: string, rows: BookmarkRow[], extra: ExtraColumns = { types: {}, values: () => ({}) }) {
      await this.drop(trx, ownerId, rows.map((row) => row.id));
      const entries = rows.map((row) => ({
        bookmark_id: row.id,
        owner_id: ownerId,
        host: row.host,
        tags: row.tags,
        create_date: row.create_date,
        update_date: row.update_date,
        read_state: row.read_state,
        ...extra.values(row),
      }));
      for (const insert of insertStatements(trx, dialect, 'bookmark_index', entries, { ...ENTRY_TYPES, ...extra.types })) await insert.execute();
      const content = rows.map((row) => ({ bookmark_id: row.id, title: row.title, link: row.link, note: row.note }));
      for (const insert of insertStatements(trx, dialect, 'bookmark_index_content', content, CONTENT_TYPES)) await insert.execute();
      const tags = rows.flatMap((row) => (JSON.parse(row.tags) as string[]).map((tag) => ({ bookmark_id: row.id, tag })));
      for (const insert of insertStatements(trx, dialect, 'bookmark_index_tags', tags, TAG_TYPES)) await insert.execute();
      await this.touch(trx, ownerId);
    },

    /** The result, and `byPage`: the ids of its page's rows found by their kept page's words. */
    async search(ownerId: string, query: IndexQuery, source: MatchSource): Promise<VersionedResult & { byPage: number[] }> {
      const conditions = [source.match, sql`i.owner_id = ${ownerId}`];
      if (query.states && query.states.length > 0) conditions.push(sql`i.read_state in (${sql.join(query.states)})`);
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
      // One statement, one round trip to PostgreSQL: the version the results are kept by, read in
      // the same snapshot as the matches; the matches' count and their hosts' and tags' counts,
      // counted by the database (a search matching 20,000 kept pages spent 140 ms reading each
      // match back to count it here); and only the page's entries whole.
      const found = await sql<SearchRow>`with m as materialized (
          select i.bookmark_id as id, i.host, i.create_date, ${source.byPage} as by_page from ${source.from} where ${where}
        )
        select 'version' as part, cast(null as bigint) as id, version as host, cast(null as text) as tags,
          cast(null as bigint) as create_date, cast(null as text) as title, cast(null as text) as link,
          cast(null as text) as note, cast(null as bigint) as update_date, cast(null as text) as read_state,
          cast(null as integer) as by_page
          from bookmark_index_versions where owner_id = ${ownerId}
        union all
        select 'total', count(*), null, null, null, null, null, null, null, null, null from m
        union all
        select 'host', count(*), host, null, null, null, null, null, null, null, null from m group by host
        union all
        select 'tag', count(*), t.tag, null, null, null, null, null, null, null, null
          from m join bookmark_index_tags t on t.bookmark_id = m.id group by t.tag
        union all
        select 'row', i.bookmark_id, i.host, i.tags, i.create_date, c.title, c.link, c.note, i.update_date, i.read_state, p.by_page
          from (select id, by_page from m order by create_date desc, id desc limit ${query.size} offset ${query.from}) p
          join bookmark_index i on i.bookmark_id = p.id
          join bookmark_index_content c on c.bookmark_id = p.id`.execute(db);
      const hosts = new Map<string, number>();
      const tags = new Map<string, number>();
      let total = 0;
      let version = 'none';
      const rows: BookmarkRow[] = [];
      const byPage: number[] = [];
      for (const row of found.rows) {
        // A count's rows hold it in `id`, and what it counts in `host`.
        if (row.part === 'total') total = Number(row.id);
        else if (row.part === 'host') hosts.set(row.host, Number(row.id));
        else if (row.part === 'tag') tags.set(row.host, Number(row.id));
        else if (row.part === 'version') version = row.host;
        else {
          const { part: _, by_page: byPageRow, ...entry } = row;
          if (Number(byPageRow) === 1) byPage.push(Number(entry.id));
          rows.push(entry);
        }
      }
      return { version, total, rows: rows.sort(byNewest), host_groups: topGroups(hosts), tag_groups: topGroups(tags), byPage };
    },
  };
}
