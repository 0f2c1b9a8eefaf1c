import { type Kysely, sql } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { Dialect } from '../storage/database.ts';
import { tsvectorLiteral } from './bookmark-index.postgres.ts';
import { ftsValues } from './bookmark-index.sqlite.ts';
import type { BookmarkRow } from './bookmark-row.ts';

const PAGE = 1000;

/**
 * Indexes every entry of every user's search index again from its stored snapshot, a page at a
 * time: for entries indexed before a change to how words are folded. The entries themselves
 * (what a search shows) do not change.
 */
export async function reindexBookmarks(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') await sql`insert into bookmark_index_fts (bookmark_index_fts) values ('delete-all')`.execute(db);
  for (let after = 0; ; ) {
    const { rows } = await sql<BookmarkRow>`
      select i.bookmark_id as id, c.title, c.link, i.host, i.tags, c.note, i.create_date, i.update_date
      from bookmark_index i join bookmark_index_content c on c.bookmark_id = i.bookmark_id
      where i.bookmark_id > ${after} order by i.bookmark_id limit ${PAGE}`.execute(db);
    if (rows.length === 0) return;
    if (dialect === 'sqlite') {
      await sql`insert into bookmark_index_fts (rowid, title, link, note, tags) values ${sql.join(rows.map(ftsValues))}`.execute(db);
    } else {
      await sql`update bookmark_index set search = u.search::tsvector
        from unnest(${rows.map((row) => row.id)}::bigint[], ${rows.map(tsvectorLiteral)}::text[]) as u(id, search)
        where bookmark_index.bookmark_id = u.id`.execute(db);
    }
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1]!.id);
  }
}
