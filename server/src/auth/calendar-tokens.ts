import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../storage/schema.ts';
import { hashOfSecretToken as hashOf, looksLikeSecretToken as looksLikeToken, newSecretToken } from '../secret-tokens.ts';

/** Each user's private calendar subscription: one token at a time, revocable, shown only when made. */
export function createCalendarTokens(db: Kysely<Database>, clock: Clock) {
  return {
    /** A new token for the user; the one before stops working at once. */
    async issue(userId: string): Promise<string> {
      const token = newSecretToken();
      const row = { user_id: userId, token_hash: hashOf(token), created_at: clock.now(), feed_etag: null, feed_changed_at: null };
      await db
        .insertInto('calendar_tokens')
        .values(row)
        .onConflict((conflict) => conflict.column('user_id').doUpdateSet(row))
        .execute();
      return token;
    },

    /** Turns the subscription off; false when it was not on. */
    async revoke(userId: string): Promise<boolean> {
      const result = await db.deleteFrom('calendar_tokens').where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** When the user's current token was made, if the subscription is on. */
    async createdAt(userId: string): Promise<number | null> {
      const row = await db.selectFrom('calendar_tokens').select('created_at').where('user_id', '=', userId).executeTakeFirst();
      return row ? row.created_at : null;
    },

    /** The user a token belongs to, if it is current. */
    async ownerOf(token: string): Promise<string | null> {
      if (!looksLikeToken(token)) return null;
      const row = await db.selectFrom('calendar_tokens').select('user_id').where('token_hash', '=', hashOf(token)).executeTakeFirst();
      return row ? row.user_id : null;
    },

    /**
     * Records the feed served now under the user's token and answers when its content last changed:
     * the feed's Last-Modified. Its content follows tasks, completions, deletions, the owner's zone
     * and the moving window alike, so the time is taken from the content, not from any one table.
     */
    async feedServed(userId: string, etag: string): Promise<number> {
      const now = clock.now();
      const row = await db
        .selectFrom('calendar_tokens')
        .select(['feed_etag', 'feed_changed_at'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (row?.feed_etag === etag && row.feed_changed_at !== null) return row.feed_changed_at;
      await db.updateTable('calendar_tokens').set({ feed_etag: etag, feed_changed_at: now }).where('user_id', '=', userId).execute();
      return now;
    },
  };
}
export type CalendarTokens = ReturnType<typeof createCalendarTokens>;
