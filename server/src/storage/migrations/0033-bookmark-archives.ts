import { type Kysely, sql } from 'kysely';

/**
 * Kept copies of bookmarked pages (issue 39): one per bookmark, in the database so that a backup
 * holds them (docs/decisions/0041-kept-pages.md). `html` is the readable article, sanitised, its
 * images inside it as data: URLs; `size` its bytes and its text's, which the owner's quota counts.
 * `owner_id` repeats the bookmark's, so that the quota is one indexed sum.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table bookmark_archives (
    bookmark_id bigint primary key references bookmarks (id) on delete cascade,
    owner_id text not null references users (id) on delete cascade,
    status text not null,
    source text not null,
    failure text,
    title text,
    byline text,
    site_name text,
    html text,
    text text,
    length integer not null,
    words integer not null,
    images integer not null,
    size bigint not null,
    attempted_at bigint not null,
    kept_at bigint
  )`.execute(db);
  await sql`create index bookmark_archives_owner on bookmark_archives (owner_id, status)`.execute(db);
}
