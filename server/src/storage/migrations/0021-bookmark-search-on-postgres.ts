import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * PostgreSQL's word index of bookmarks. A GIN index gathers new entries in a pending list, which
 * every search reads whole, until a vacuum or the list's limit (some megabytes by default) moves them into
 * the index: with autovacuum lagging or off, after an import of 100,000 bookmarks each search read
 * 346 pages of it before its matches (a search of a rare word: 350 pages, 10 without the list).
 * The smallest limit keeps the list to a few pages and still writes an import's entries in bulk.
 *
 * A search narrowed to hosts found its entries by the word alone, or read them all when the word
 * was common (4,748 pages for five matches): an index on the owner's hosts finds them directly.
 * SQLite's searches go from its word index to the entries, never by host.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter index bookmark_index_search set (gin_pending_list_limit = 64)`.execute(db);
  await sql`select gin_clean_pending_list('bookmark_index_search')`.execute(db);
  await sql`create index bookmark_index_owner_host on bookmark_index (owner_id, host)`.execute(db);
}
