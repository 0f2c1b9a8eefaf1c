import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { passwordResetMail } from '../mail/account-mail.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Database } from '../storage/schema.ts';
import { createUsersStore } from '../users/users.store.ts';
import type { AuthService } from './auth.service.ts';
import { hashOfSecretToken, looksLikeSecretToken, newSecretToken } from '../secret-tokens.ts';

/** A reset link works for an hour: mail arrives in minutes, and a link found later in a mailbox is dead. */
export const RESET_LINK_MINUTES = 60;
const RESET_LINK_MS = RESET_LINK_MINUTES * 60 * 1000;

/** The path of the client's page that asks the new password. */
export const RESET_PAGE = '/reset-password';

const linkNotGood = () => new AppError(400, 'token: this link has been used or has expired; ask for a new one');

type Dependencies = {
  db: Kysely<Database>;
  clock: Clock;
  auth: Pick<AuthService, 'replacePassword'>;
  mailer: Mailer;
  /** The address links in mail lead to: PUBLIC_URL, never a request's Host header, which the asker chooses. */
  origin: string;
  log: Logger;
};

/** Forgotten passwords: a single-use link by mail, which sets a new password and ends every session (and, if asked, every other credential). */
export function createPasswordResets({ db, clock, auth, mailer, origin, log }: Dependencies) {
  const users = createUsersStore(db);

  async function issue(userId: string, email: string): Promise<void> {
    const token = newSecretToken();
    const now = clock.now();
    const tokenHash = hashOfSecretToken(token);
    await db
      .insertInto('password_resets')
      .values({ token_hash: tokenHash, user_id: userId, created_at: now, expires_at: now + RESET_LINK_MS, used_at: null })
      .execute();
    const url = `${origin}${RESET_PAGE}?token=${encodeURIComponent(token)}`;
    await mailer.send(passwordResetMail({ id: `reset.${tokenHash.slice(0, 16)}`, email, url, minutes: RESET_LINK_MINUTES }));
  }

  return {
    /**
     * Mails a link if the e-mail is an account's that may sign in. Whether it is, the caller is not
     * told, and is answered before any mail is sent, so the answer takes the same time either way.
     */
    async request(email: string): Promise<void> {
      const user = await users.findByEmail(email);
      if (!user || user.disabled_at !== null) return;
      void issue(user.id, user.email).catch((error: unknown) => log.warn({ err: error }, 'a password reset mail was not sent'));
    },

    /**
     * Sets the new password if the link is good, using it up together with every other link of the
     * account; `endOtherCredentials` ends the account's API tokens, app passwords and calendar address too.
     */
    async confirm(token: string, password: string, { endOtherCredentials = false }: { endOtherCredentials?: boolean } = {}): Promise<void> {
      if (!looksLikeSecretToken(token)) throw linkNotGood();
      const tokenHash = hashOfSecretToken(token);
      const row = await db
        .selectFrom('password_resets')
        .select('user_id')
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', clock.now())
        .executeTakeFirst();
      if (!row) throw linkNotGood();
      await auth.replacePassword(row.user_id, password, {
        endOtherCredentials,
        // Used in the password's own transaction: of two uses at once, one sets it and the other changes nothing.
        first: async (trx) => {
          const now = clock.now();
          const used = await trx
            .updateTable('password_resets')
            .set({ used_at: now })
            .where('token_hash', '=', tokenHash)
            .where('used_at', 'is', null)
            .where('expires_at', '>', now)
            .executeTakeFirst();
          if (Number(used.numUpdatedRows) !== 1) throw linkNotGood();
          await trx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', row.user_id).where('used_at', 'is', null).execute();
        },
      });
    },
  };
}
export type PasswordResets = ReturnType<typeof createPasswordResets>;
