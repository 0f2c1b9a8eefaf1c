import { type Kysely, sql } from 'kysely';

/**
 * The addresses a user mails books to (send to e-reader): a Kindle's, a PocketBook's, any other,
 * each with its name, its kind and the largest file it takes, in bytes. Listed by their owner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table e_reader_devices (
    id text primary key,
    user_id text not null references users (id) on delete cascade,
    name text not null,
    email text not null,
    kind text not null,
    max_bytes bigint not null,
    created_at bigint not null
  )`.execute(db);
  await sql`create index e_reader_devices_user on e_reader_devices (user_id, created_at)`.execute(db);
}
