import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

/**
 * Ends every credential the user made besides sessions: API tokens, app passwords and the calendar
 * address, each of which whoever knew an old password could have made. Each is looked up in the
 * database on every request, so deleting its rows stops it at once on every instance. Run in the
 * transaction that sets the new password.
 */
export async function deleteOtherCredentials(q: Kysely<Database>, userId: string): Promise<void> {
  await q.deleteFrom('api_tokens').where('user_id', '=', userId).execute();
  await q.deleteFrom('app_passwords').where('user_id', '=', userId).execute();
  await q.deleteFrom('calendar_tokens').where('user_id', '=', userId).execute();
}
