import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * The words of kept pages (issue 39, docs/decisions/0043-page-text-search.md), apart from the
 * bookmarks' own: a page is a thousand times a bookmark's text, and the bookmark index's four
 * fields already take FTS5's columns and all four of PostgreSQL's weights. On SQLite a contentless
 * FTS5 table keyed by bookmark id, with the bookmark index's tokenizer (words folded in JavaScript
 * first); its rows go with the copy's by a trigger, which a bookmark's delete reaches by cascade.
 * On PostgreSQL a tsvector of the copy's own row, with a GIN index. Words are folded in
 * JavaScript, which a migration cannot reach: the copies kept before this are indexed as the
 * server starts (storage/stale-derived-data.ts).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create virtual table bookmark_page_fts using fts5(
      text,
      content = '', contentless_delete = 1, detail = none, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3'
    )`.execute(db);
    // As the bookmark index's (0019): each write merges a bounded step (archives.store.ts).
    await sql`insert into bookmark_page_fts (bookmark_page_fts, rank) values ('automerge', 0)`.execute(db);
    await sql`create trigger bookmark_page_fts_gone after delete on bookmark_archives begin
      delete from bookmark_page_fts where rowid = old.bookmark_id;
    end`.execute(db);
  } else {
    await sql`alter table bookmark_archives add column text_search tsvector`.execute(db);
    await sql`create index bookmark_archives_text_search on bookmark_archives using gin (text_search)`.execute(db);
    // The pages with the words, always through the GIN index. PostgreSQL prices `@@` as cheap and
    // knows nothing of reading each page's vector out of TOAST: for a word in most of a user's
    // pages it chose to scan them all (44 ms at 3,000 pages) over the index (1.4 ms). A function
    // with its own settings is planned apart, where the index is the only way; the owner is
    // checked on its rows.
    await sql`create function bookmark_pages_with(query tsquery) returns table (bookmark_id bigint, owner_id text)
      language sql stable set enable_seqscan = off set enable_indexscan = off
      as 'select bookmark_id, owner_id from bookmark_archives where text_search @@ query'`.execute(db);
  }
  await sql`create table if not exists stale_derived_data (name text primary key)`.execute(db);
  await sql`insert into stale_derived_data (name) values ('bookmarks.page_words') on conflict do nothing`.execute(db);
}
