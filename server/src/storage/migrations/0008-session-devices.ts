import type { Kysely } from 'kysely';

/** Each refresh-token row records the device and address it was issued to, for the list of a user's sessions. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('address', 'text').execute();
  await db.schema.createIndex('sessions_revoked').on('sessions').column('revoked_at').execute();
}
