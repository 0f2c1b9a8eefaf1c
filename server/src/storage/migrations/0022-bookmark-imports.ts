import { type Kysely, sql } from 'kysely';

/**
 * Each bookmark import while it writes, and each one that stopped before the end: its bookmarks
 * are written a batch at a time, so that one cut short (a crash, a failure) leaves the batches
 * before, and the owner is told so and offered to finish it (bookmarks/bookmark-imports.store.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table bookmark_imports (
    id text primary key,
    owner_id text not null references users (id) on delete cascade,
    file_sha256 text not null,
    links bigint not null,
    imported bigint not null,
    state text not null,
    started_at bigint not null,
    alive_at bigint not null
  )`.execute(db);
  await sql`create index bookmark_imports_owner on bookmark_imports (owner_id, started_at)`.execute(db);
}
