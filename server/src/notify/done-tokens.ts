import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { hashOfSecretToken, looksLikeSecretToken, newSecretToken } from '../secret-tokens.ts';

/** A Done link works for a week: long after it, the notice is stale and the task has usually moved on. */
export const DONE_LINK_DAYS = 7;
const DAY = 86_400_000;

/** The occurrence a Done link completes. */
export type DoneOccurrence = { taskId: string; ownerId: string; scheduleTime: number };

/** What using a link found: the occurrence, or why there is none (no such link; used or expired). */
export type DoneClaim = { occurrence: DoneOccurrence; release(): Promise<void> } | 'unknown' | 'spent';

/**
 * The single-use Done links that push and ntfy notices carry (`/api/notify/done/{token}`): a
 * secret token of secret-tokens.ts, only its SHA-256 kept, naming one occurrence of one task.
 */
export function createDoneTokens(db: Kysely<Database>) {
  return {
    /** A new link for the occurrence; links past their week go at the same time, as nothing can use them. */
    async issue(occurrence: DoneOccurrence, now: number): Promise<string> {
      await db.deleteFrom('notice_done_tokens').where('expires_at', '<=', now).execute();
      const token = newSecretToken();
      await db
        .insertInto('notice_done_tokens')
        .values({
          token_hash: hashOfSecretToken(token),
          task_id: occurrence.taskId,
          owner_id: occurrence.ownerId,
          schedule_time: occurrence.scheduleTime,
          expires_at: now + DONE_LINK_DAYS * DAY,
          used_at: null,
        })
        .execute();
      return token;
    },

    /**
     * Marks the link used, in one statement, so that of two uses at once only one goes on.
     * `release()` gives it back, for a completion refused after all (the task had moved on).
     */
    async claim(token: string, now: number): Promise<DoneClaim> {
      if (!looksLikeSecretToken(token)) return 'unknown';
      const hash = hashOfSecretToken(token);
      const row = await db
        .updateTable('notice_done_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', hash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['task_id', 'owner_id', 'schedule_time'])
        .executeTakeFirst();
      if (!row) {
        const known = await db.selectFrom('notice_done_tokens').select('token_hash').where('token_hash', '=', hash).executeTakeFirst();
        return known ? 'spent' : 'unknown';
      }
      return {
        occurrence: { taskId: row.task_id, ownerId: row.owner_id, scheduleTime: Number(row.schedule_time) },
        release: async () => {
          await db.updateTable('notice_done_tokens').set({ used_at: null }).where('token_hash', '=', hash).execute();
        },
      };
    },
  };
}
export type DoneTokens = ReturnType<typeof createDoneTokens>;
