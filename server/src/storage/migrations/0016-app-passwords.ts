import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Named passwords for e-readers (HTTP Basic on /opds), kept as the SHA-256 of the password, which
  // is shown once. Found by the hash at every request; listed by their owner.
  await sql`create table app_passwords (
    id text primary key,
    user_id text not null references users (id) on delete cascade,
    name text not null,
    password_hash text not null unique,
    created_at bigint not null,
    last_used_at bigint
  )`.execute(db);
  await sql`create index app_passwords_user on app_passwords (user_id, created_at)`.execute(db);
}
