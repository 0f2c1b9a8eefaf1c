import type { Kysely } from 'kysely';
import webpush from 'web-push';
import type { Database } from '../storage/schema.ts';
import { settingsStore } from '../storage/settings.store.ts';

const SETTING = 'vapid_keys';

export type VapidKeys = { publicKey: string; privateKey: string };

/**
 * The instance's VAPID key pair (P-256, base64url), made once and kept in the database: every
 * instance on one PostgreSQL signs with it, a backup carries it, and the browsers' subscriptions,
 * bound to its public key, outlive restarts and restores (docs/decisions/0047-push-and-ntfy-notices.md).
 */
export async function loadVapidKeys(db: Kysely<Database>): Promise<VapidKeys> {
  const kept = await settingsStore(db).writeOnce(SETTING, JSON.stringify(webpush.generateVAPIDKeys()));
  return JSON.parse(kept) as VapidKeys;
}
