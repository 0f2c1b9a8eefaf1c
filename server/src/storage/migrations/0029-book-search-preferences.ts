import { type Kysely, sql } from 'kysely';

/**
 * Each account's book search settings (issue 37): kept on the server, so that the phone and
 * another browser start where the last one left. One JSON value a user, read and written whole.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table book_search_preferences (
    user_id text primary key references users (id) on delete cascade,
    preferences text not null,
    updated_at bigint not null
  )`.execute(db);
}
