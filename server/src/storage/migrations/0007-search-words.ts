import { type Kysely, sql } from 'kysely';
import { reindexBookmarks } from '../../bookmarks/bookmarks.reindex.ts';
import { reindexCatalogue } from '../../books/books.reindex.ts';
import type { Dialect } from '../database.ts';
import type { Database } from '../schema.ts';

/** The book columns of this migration's time: later ones do not exist yet. */
const COLUMNS_THEN = [
  'id', 'title', 'author', 'identifier', 'publish_date', 'publisher', 'created', 'updated', 'comment', 'path', 'formats', 'format_mask',
] as const;

/**
 * Words fold more Latin letters (ı ł ø ß æ …), file paths are indexed below their library, and a
 * book's identifier is matched whole: every book and bookmark entry is indexed again, so an
 * installation upgraded in place answers as one loaded afresh.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql`alter table books add column identifier_key text not null default ''`.execute(db);
  await sql`create index books_identifier_key on books (identifier_key)`.execute(db);
  await reindexCatalogue(db as Kysely<Database>, dialect, COLUMNS_THEN);
  await reindexBookmarks(db as Kysely<Database>, dialect);
}
