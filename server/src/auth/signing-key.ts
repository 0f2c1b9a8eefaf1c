import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

const SETTING = 'jwt_secret';

/**
 * `JWT_SECRET` when set; otherwise a secret made once and kept in the database, so that
 * restarts keep sessions and every instance on one PostgreSQL signs with the same key.
 */
export async function loadSigningKey(db: Kysely<Database>, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insertInto('settings')
    .values({ key: SETTING, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', SETTING).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}
