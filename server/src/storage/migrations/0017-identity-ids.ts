import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

type OldIdentity = { issuer: string; subject: string; user_id: string; created_at: number; last_sign_in_at: number };

/** Rows written per statement: far below either database's limit on parameters. */
const CHUNK = 500;

/**
 * Each linked provider account gets an id of its own, by which its owner unlinks it from the
 * profile: the issuer and subject stay unique but are not put in URLs. The table is built again,
 * since SQLite cannot add a primary key to a table that has one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table oidc_identities_new (
    id text constraint oidc_identities_id_pk primary key,
    issuer text not null,
    subject text not null,
    user_id text not null references users (id) on delete cascade,
    created_at bigint not null,
    last_sign_in_at bigint not null,
    constraint oidc_identities_issuer_subject unique (issuer, subject)
  )`.execute(db);
  const rows = (await sql<OldIdentity>`select issuer, subject, user_id, created_at, last_sign_in_at from oidc_identities`.execute(db)).rows;
  const typed = db as Kysely<{ oidc_identities_new: OldIdentity & { id: string } }>;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK).map((row) => ({ ...row, id: randomUUID() }));
    await typed.insertInto('oidc_identities_new').values(chunk).execute();
  }
  await sql`drop table oidc_identities`.execute(db);
  await sql`alter table oidc_identities_new rename to oidc_identities`.execute(db);
  await sql`create index oidc_identities_user on oidc_identities (user_id, created_at)`.execute(db);
}
