import { sql, type Kysely } from 'kysely';

/**
 * Administration (issue 14): an account can be disabled and can be made to change its password at
 * its next sign-in; invitations and password resets are kept as the SHA-256 of their token (the
 * token itself travels only in the link), each used once and only until it expires.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
  await db.schema
    .alterTable('users')
    .addColumn('password_change_required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create table invitations (
    token_hash text primary key,
    email text not null,
    invited_by text references users (id) on delete set null,
    created_at bigint not null,
    expires_at bigint not null,
    used_at bigint
  )`.execute(db);
  await sql`create table password_resets (
    token_hash text primary key,
    user_id text not null references users (id) on delete cascade,
    created_at bigint not null,
    expires_at bigint not null,
    used_at bigint
  )`.execute(db);
  await sql`create index password_resets_user on password_resets (user_id)`.execute(db);
  // The administration's list shows each account's last use: its newest session row.
  await sql`create index sessions_user_created on sessions (user_id, created_at)`.execute(db);
}
