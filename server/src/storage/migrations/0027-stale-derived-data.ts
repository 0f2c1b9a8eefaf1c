import { type Kysely, sql } from 'kysely';

/** The table migration 0007 marks stale data in, for installations that ran 0007 before it did (stale-derived-data.ts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists stale_derived_data (name text primary key)`.execute(db);
}
