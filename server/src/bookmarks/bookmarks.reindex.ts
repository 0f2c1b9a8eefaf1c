import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { Dialect } from '../storage/database.ts';
import { ENTRY_COLUMNS } from './bookmarks.search.ts';
import { postgresReindex } from './bookmarks.search.postgres.ts';
import { sqliteReindex } from './bookmarks.search.sqlite.ts';
import type { BookmarkRow } from './bookmark-row.ts';

const PAGE = 1000;

/**
 * Indexes every entry of every user's search index again from its stored snapshot, a page at a
 * time: for entries indexed before a change to how words are folded. The entries themselves
 * (what a search shows) do not change.
 */
export async function reindexBookmarks(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const reindex = dialect === 'sqlite' ? sqliteReindex : postgresReindex;
  await reindex.start(db);
  for (let after = 0; ; ) {
    const { rows } = await sql<BookmarkRow>`
      select ${ENTRY_COLUMNS} from bookmark_index i join bookmark_index_content c on c.bookmark_id = i.bookmark_id
      where i.bookmark_id > ${after} order by i.bookmark_id limit ${PAGE}`.execute(db);
    if (rows.length === 0) return;
    await reindex.page(db, rows);
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1]!.id);
  }
}
