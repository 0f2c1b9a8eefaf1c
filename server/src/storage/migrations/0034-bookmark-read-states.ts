import { type Kysely, sql } from 'kysely';

/**
 * Read later (issue 39): each bookmark is `unread`, `read` or `archived`. Bookmarks saved before
 * this migration are `read`: they were kept as references, and the Unread list starts empty rather
 * than holding every link a browser import ever brought (docs/decisions/0042-read-later-states.md).
 * The code writes the state of every new row itself; the default only fills the rows already there.
 *
 * The search index's entries carry the state too, so that a search filtered by it stays one walk
 * of the matches on both databases; the state is changed in both tables at once.
 *
 * The Unread list reads the owner's bookmarks of one state newest first by its own index, and
 * counts them by it. Independent of 0033 (another feature's), which runs before it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bookmarks add column read_state text not null default 'read'`.execute(db);
  await sql`create index bookmarks_read_state on bookmarks (owner_id, read_state, create_date, id)`.execute(db);
  // Every bookmark is read now, so every entry is too: no row needs to be copied.
  await sql`alter table bookmark_index add column read_state text not null default 'read'`.execute(db);
}
