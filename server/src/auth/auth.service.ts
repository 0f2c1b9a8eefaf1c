import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuthReply, LoginBody, RegisterBody } from '../../../contract/auth.ts';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { Database } from '../storage/schema.ts';
import type { AccountsService } from '../users/accounts.service.ts';
import { createUsersStore, type UserRow } from '../users/users.store.ts';
import { decoyHashPromise, hashPassword, verifyPassword } from './passwords.ts';
import { createSessionsStore } from './sessions.store.ts';
import { type AccessTokens, hashRefreshToken, newRefreshToken } from './tokens.ts';

/**
 * Two tabs that find their bearer token expired at the same moment both present the same
 * refresh token; within this window the second one is served instead of being taken for theft.
 */
export const REFRESH_REUSE_GRACE_MS = 15_000;

export type SignedIn = { reply: AuthReply; refreshToken: string };

type Dependencies = {
  db: Kysely<Database>;
  clock: Clock;
  tokens: AccessTokens;
  accounts: AccountsService;
  sessionDays: number;
};

const WRONG_CREDENTIALS = 'Wrong e-mail or password';

export function createAuthService({ db, clock, tokens, accounts, sessionDays }: Dependencies) {
  const users = createUsersStore(db);
  const sessions = createSessionsStore(db);
  const sessionMs = sessionDays * 24 * 60 * 60 * 1000;

  async function issue(user: UserRow, familyId: string): Promise<SignedIn> {
    const now = clock.now();
    const { token, hash } = newRefreshToken();
    await sessions.insert({
      id: randomUUID(),
      family_id: familyId,
      user_id: user.id,
      token_hash: hash,
      created_at: now,
      expires_at: now + sessionMs,
      rotated_at: null,
      revoked_at: null,
    });
    const authUser = {
      uid: user.id,
      email: user.email,
      displayName: user.display_name,
      admin: accounts.isAdmin(user),
    };
    return { reply: { idToken: await tokens.sign(authUser), user: authUser }, refreshToken: token };
  }

  return {
    async register(body: RegisterBody): Promise<SignedIn> {
      const passwordHash = await hashPassword(body.password);
      const user = await accounts.create({ email: body.email, displayName: body.displayName, photo: null, passwordHash });
      return issue(user, randomUUID());
    },

    /** Unknown e-mail and wrong password fail alike, in the same time. */
    async login(body: LoginBody): Promise<SignedIn> {
      const user = await users.findByEmail(body.email);
      const stored = user?.password_hash ?? (await decoyHashPromise);
      const matches = await verifyPassword(body.password, stored);
      if (!user?.password_hash || !matches) throw new AppError(401, WRONG_CREDENTIALS);
      return issue(user, randomUUID());
    },

    /** A new sign-in for a user an identity provider has vouched for (auth/oidc/). */
    signInAs(user: UserRow): Promise<SignedIn> {
      return issue(user, randomUUID());
    },

    /** Rotates the refresh token; a rotated token presented again revokes its whole family. */
    async refresh(refreshToken: string): Promise<SignedIn> {
      const now = clock.now();
      const row = await sessions.findByHash(hashRefreshToken(refreshToken));
      if (!row || row.revoked_at !== null || row.expires_at <= now) {
        throw new AppError(401, 'Your session has ended; please sign in again');
      }
      const rotatedByUs = row.rotated_at === null && (await sessions.markRotated(row.id, now));
      if (!rotatedByUs) {
        const rotatedAt = row.rotated_at ?? now;
        if (now - rotatedAt > REFRESH_REUSE_GRACE_MS) {
          await sessions.revokeFamily(row.family_id, now);
          throw new AppError(401, 'Your session has ended; please sign in again');
        }
      }
      const user = await users.findById(row.user_id);
      if (!user) throw new AppError(401, 'Your session has ended; please sign in again');
      return issue(user, row.family_id);
    },

    async logout(refreshToken: string): Promise<void> {
      const row = await sessions.findByHash(hashRefreshToken(refreshToken));
      if (row) await sessions.revokeFamily(row.family_id, clock.now());
    },

    /** Expired rows are kept a while after expiry so that reuse of an old token is still recognised. */
    pruneSessions() {
      return sessions.deleteExpired(clock.now() - sessionMs);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
