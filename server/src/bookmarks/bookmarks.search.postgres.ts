import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { weightedFields } from '../search/tsvector.ts';
import { type BookmarkIndex, type BookmarkWords, chosenFields, createBookmarkIndex, type IndexQuery, indexedText } from './bookmarks.search.ts';
import type { BookmarkRow } from './bookmark-row.ts';

/** Each field is a weight class, so that a query can be limited to fields. */
const FIELDS = weightedFields({ title: 'A', link: 'B', note: 'C', tags: 'D' });

const entryTsvector = (row: BookmarkRow) => FIELDS.vector(indexedText(row));

/** Every term as a prefix, for the kept pages' tsvector (bookmark-page-words.ts), which has no weights. */
const pageQuery = (query: IndexQuery) => query.terms.map((term) => `'${term}':*`).join(' & ');

/** A tsvector column with a GIN index; the kept pages' own on their copies' rows (migration 0035). */
const postgresWords = (db: Kysely<Database>): BookmarkWords => ({
  dialect: 'postgres',

  put: (_trx, _ownerId, _entries, replace) => replace({ types: { search: 'tsvector' }, values: (row) => ({ search: entryTsvector(row) }) }),

  // The words live in the entries' own rows.
  remove: (_trx, _ownerId, _ids, removeEntries) => removeEntries(),

  entriesById: sql`bookmark_index`,

  matches(ownerId, query) {
    const fields = chosenFields(query.fields);
    const entryMatch = sql`search @@ ${FIELDS.query(query.terms, fields.entry)}::tsquery`;
    if (!fields.page) return { from: sql`bookmark_index i`, match: sql`i.${entryMatch}`, byPage: sql`0` };
    // Each word index asked once, and each id kept once, marked when its page has the words.
    // Through the GIN index always (migration 0035), the owner checked on the pages it finds.
    const pages = sql`select bookmark_id, 1 as by_page from bookmark_pages_with(${pageQuery(query)}::tsquery) where owner_id = ${ownerId}`;
    const ids =
      fields.entry.length === 0
        ? pages
        : sql`select bookmark_id, max(by_page) as by_page from (select bookmark_id, 0 as by_page from bookmark_index
            where owner_id = ${ownerId} and ${entryMatch} union all ${pages}) u group by bookmark_id`;
    return { from: sql`(${ids}) w join bookmark_index i on i.bookmark_id = w.bookmark_id`, match: sql`true`, byPage: sql`w.by_page` };
  },

  /**
   * An import leaves what autovacuum would tidy, and it may lag or be off. Without statistics of
   * the entries a search also walked all the owner's entries by the owner index (a user's hundred
   * thousand for a word's five matches); without those of the counts the list's groups were read
   * by the wrong index and sorted. Every write of an import's batch adds to the counts of the
   * owner's common hosts and tags, leaving dead rows in the index of the groups' order: after
   * 100,000 bookmarks the list's groups read 800 pages of it, 60 once vacuumed.
   */
  async settle() {
    await sql`vacuum (analyze) bookmark_facets`.execute(db);
    await sql`analyze bookmark_index`.execute(db);
  },
});

export const createPostgresBookmarkIndex = (db: Kysely<Database>): BookmarkIndex => createBookmarkIndex(db, postgresWords(db));

/** Re-indexing (bookmarks.reindex.ts): each entry's tsvector computed again. */
export const postgresReindex = {
  async start() {},

  async page(db: Kysely<Database>, rows: BookmarkRow[]) {
    await sql`update bookmark_index set search = u.search::tsvector
      from unnest(${rows.map((row) => row.id)}::bigint[], ${rows.map(entryTsvector)}::text[]) as u(id, search)
      where bookmark_index.bookmark_id = u.id`.execute(db);
  },
};
