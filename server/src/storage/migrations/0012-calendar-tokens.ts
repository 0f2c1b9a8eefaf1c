import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One calendar subscription per user, kept as the SHA-256 of its token (the token itself is shown
  // once). The feed last served under it (its ETag, and when that changed) gives Last-Modified.
  await sql`create table calendar_tokens (
    user_id text primary key references users (id) on delete cascade,
    token_hash text not null unique,
    created_at bigint not null,
    feed_etag text,
    feed_changed_at bigint
  )`.execute(db);
  // The feed reads the owner's completions due within its window.
  await sql`create index task_completions_owner_due on task_completions (owner_id, due_time)`.execute(db);
}
