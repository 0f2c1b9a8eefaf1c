import { type Kysely, sql } from 'kysely';

/**
 * Where an imported bookmark sat in the browser's tree, and its keyword, so that the export gives
 * a browser back the folders it came from rather than one flat list (issue 37). `folder_root` is
 * the browser's root folder ('' for the menu, `toolbar`, `unfiled`), `folder` the folders below it
 * as a JSON list, outermost first. The index reads one folder's bookmarks oldest first, as the
 * export writes them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bookmarks add column folder_root text not null default ''`.execute(db);
  await sql`alter table bookmarks add column folder text not null default '[]'`.execute(db);
  await sql`alter table bookmarks add column keyword text`.execute(db);
  await sql`create index bookmarks_folder on bookmarks (owner_id, folder_root, folder, create_date, id)`.execute(db);
}
