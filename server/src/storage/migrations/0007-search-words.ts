import { type Kysely, sql } from 'kysely';

/**
 * Words fold more Latin letters (ı ł ø ß æ …), file paths are indexed below their library, and a
 * book's identifier is matched whole: every book's identifier key and every bookmark entry's words
 * are marked stale, to be worked out again at the next start (stale-derived-data.ts), so an
 * installation upgraded in place answers as one loaded afresh.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table books add column identifier_key text not null default ''`.execute(db);
  await sql`create index books_identifier_key on books (identifier_key)`.execute(db);
  await sql`create table if not exists stale_derived_data (name text primary key)`.execute(db);
  await sql`insert into stale_derived_data (name) values ('books.identifier_key'), ('bookmarks.words')`.execute(db);
}
