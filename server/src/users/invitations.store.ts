import type { Kysely } from 'kysely';
import { hashOfSecretToken, looksLikeSecretToken, newSecretToken } from '../secret-tokens.ts';
import type { Database } from '../storage/schema.ts';

/** An invitation is good for a week: long enough for a household's e-mail to be read, short enough that a forgotten link dies. */
export const INVITATION_DAYS = 7;
const INVITATION_MS = INVITATION_DAYS * 24 * 60 * 60 * 1000;

/** Invitations to sign up with one e-mail; each token is shown once and kept as its SHA-256. */
export function createInvitationsStore(db: Kysely<Database>) {
  return {
    async issue(email: string, invitedBy: string, now: number): Promise<{ token: string; expiresAt: number }> {
      const token = newSecretToken();
      const expiresAt = now + INVITATION_MS;
      await db
        .insertInto('invitations')
        .values({ token_hash: hashOfSecretToken(token), email, invited_by: invitedBy, created_at: now, expires_at: expiresAt, used_at: null })
        .execute();
      return { token, expiresAt };
    },

    /** The e-mail of an invitation still good (not used, not expired). */
    async emailOf(token: string, now: number): Promise<string | null> {
      if (!looksLikeSecretToken(token)) return null;
      const row = await db
        .selectFrom('invitations')
        .select('email')
        .where('token_hash', '=', hashOfSecretToken(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row?.email ?? null;
    },

    /** The invitations still good, newest first, with the name of who sent each. */
    pending(now: number) {
      return db
        .selectFrom('invitations')
        .leftJoin('users', 'users.id', 'invitations.invited_by')
        .select(['invitations.token_hash', 'invitations.email', 'users.display_name', 'invitations.created_at', 'invitations.expires_at'])
        .where('invitations.used_at', 'is', null)
        .where('invitations.expires_at', '>', now)
        .orderBy('invitations.created_at', 'desc')
        .orderBy('invitations.token_hash')
        .execute();
    },

    /**
     * Takes back an invitation still good, named by its hash: its link then answers as an unknown
     * one. False when there is none such (unknown, used or expired).
     */
    async revoke(tokenHash: string, now: number): Promise<boolean> {
      const result = await db
        .deleteFrom('invitations')
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** Marks a good invitation used, in the caller's transaction; false when it is not good (any more). */
    async use(token: string, now: number): Promise<boolean> {
      if (!looksLikeSecretToken(token)) return false;
      const result = await db
        .updateTable('invitations')
        .set({ used_at: now })
        .where('token_hash', '=', hashOfSecretToken(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
