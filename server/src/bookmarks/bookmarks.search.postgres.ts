import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { weightedFields } from '../search/tsvector.ts';
import { type BookmarkIndex, type BookmarkWords, createBookmarkIndex, indexedText } from './bookmarks.search.ts';
import type { BookmarkRow } from './bookmark-row.ts';

/** Each field is a weight class, so that a query can be limited to fields. */
const FIELDS = weightedFields({ title: 'A', link: 'B', note: 'C', tags: 'D' });

const entryTsvector = (row: BookmarkRow) => FIELDS.vector(indexedText(row));

/** A tsvector column with a GIN index. */
const postgresWords: BookmarkWords = {
  put: (_trx, _ownerId, _entries, replace) => replace((row) => ({ search: sql`${entryTsvector(row)}::tsvector` })),

  // The words live in the entries' own rows.
  remove: (_trx, _ownerId, _ids, removeEntries) => removeEntries(),

  entriesById: sql`bookmark_index`,

  matches: (query) => ({
    from: sql`bookmark_index i`,
    match: sql`i.search @@ ${FIELDS.query(query.terms, query.fields)}::tsquery`,
  }),
};

export const createPostgresBookmarkIndex = (db: Kysely<Database>): BookmarkIndex => createBookmarkIndex(db, postgresWords);

/** Re-indexing (bookmarks.reindex.ts): each entry's tsvector computed again. */
export const postgresReindex = {
  async start() {},

  async page(db: Kysely<Database>, rows: BookmarkRow[]) {
    await sql`update bookmark_index set search = u.search::tsvector
      from unnest(${rows.map((row) => row.id)}::bigint[], ${rows.map(entryTsvector)}::text[]) as u(id, search)
      where bookmark_index.bookmark_id = u.id`.execute(db);
  },
};
