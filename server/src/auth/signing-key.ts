import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { settingsStore } from '../storage/settings.store.ts';

const SETTING = 'jwt_secret';

/**
 * `JWT_SECRET` when set; otherwise a secret made once and kept in the database, so that
 * restarts keep sessions and every instance on one PostgreSQL signs with the same key.
 */
export async function loadSigningKey(db: Kysely<Database>, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  const kept = await settingsStore(db).writeOnce(SETTING, randomBytes(32).toString('base64url'));
  return Buffer.from(kept, 'base64url');
}
