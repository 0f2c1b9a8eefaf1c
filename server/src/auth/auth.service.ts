import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChangePasswordBody } from '../../../contract/account.ts';
import type { AuthReply, LoginBody, RegisterBody } from '../../../contract/auth.ts';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { Database } from '../storage/schema.ts';
import type { AccountsService } from '../users/accounts.service.ts';
import { createUsersStore, type UserRow } from '../users/users.store.ts';
import type { HashingQueue } from './hashing-queue.ts';
import { deleteOtherCredentials } from './other-credentials.ts';
import { assertUncommonPassword, loadCommonPasswords } from './password-rules.ts';
import { decoyHashPromise } from './passwords.ts';
import { hashRefreshToken, type RefreshTokens } from './refresh-tokens.ts';
import type { SessionRevocations } from './session-revocations.ts';
import type { SessionClient } from './session-client.ts';
import { createSessionsStore, type SessionRow } from './sessions.store.ts';
import type { AccessTokens } from './tokens.ts';

/**
 * Two tabs that find their bearer token expired at the same moment both present the same
 * refresh token; within this window the second one is given the same successor instead of
 * being taken for theft.
 */
export const REFRESH_REUSE_GRACE_MS = 15_000;

/** How far a token presented within the grace is followed along its successors to the live one. */
const MAX_SUCCESSOR_STEPS = 5;

export type SignedIn = { reply: AuthReply; refreshToken: string };

const UNKNOWN_CLIENT: SessionClient = { userAgent: null, address: null };
const MAX_USER_AGENT = 300;

type Dependencies = {
  db: Kysely<Database>;
  clock: Clock;
  tokens: AccessTokens;
  refreshTokens: RefreshTokens;
  revocations: SessionRevocations;
  hashing: HashingQueue;
  accounts: AccountsService;
  sessionDays: number;
};

const WRONG_CREDENTIALS = 'Wrong e-mail or password';
/** 403, not 401: the client takes a 401 for an expired token and would sign the user out. */
export const WRONG_CURRENT_PASSWORD = 'current: the current password is wrong';
const sessionEnded = () => new AppError(401, 'Your session has ended; please sign in again');
/** Told only to whoever proved the account's password or identity. */
const accountDisabled = () => new AppError(403, 'This account has been disabled; ask an administrator');

export function createAuthService({ db, clock, tokens, refreshTokens, revocations, hashing, accounts, sessionDays }: Dependencies) {
  const users = createUsersStore(db);
  const sessions = createSessionsStore(db);
  const sessionMs = sessionDays * 24 * 60 * 60 * 1000;
  void loadCommonPasswords();

  function sessionRow(user: UserRow, familyId: string, token: string, client: SessionClient): SessionRow {
    const now = clock.now();
    return {
      id: randomUUID(),
      family_id: familyId,
      user_id: user.id,
      token_hash: hashRefreshToken(token),
      created_at: now,
      expires_at: now + sessionMs,
      rotated_at: null,
      revoked_at: null,
      user_agent: client.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      address: client.address,
    };
  }

  async function signedIn(user: UserRow, familyId: string, refreshToken: string): Promise<SignedIn> {
    const authUser = { uid: user.id, email: user.email, displayName: user.display_name, admin: accounts.isAdmin(user) };
    const passwordChangeRequired = user.password_change_required === 1;
    const idToken = await tokens.sign({ ...authUser, passwordChangeRequired }, familyId);
    return { reply: { idToken, user: authUser, passwordChangeRequired }, refreshToken };
  }

  async function startSession(user: UserRow, client: SessionClient): Promise<SignedIn> {
    if (user.disabled_at !== null) throw accountDisabled();
    const token = refreshTokens.fresh();
    const row = sessionRow(user, randomUUID(), token, client);
    await sessions.insert(row);
    return signedIn(user, row.family_id, token);
  }

  async function endSessions(familyIds: string[]): Promise<void> {
    if (familyIds.length > 0) await revocations.announce(familyIds);
  }

  /** The live token that `token`'s successors lead to, for a second tab within the grace; null when none does. */
  async function liveSuccessor(token: string): Promise<string | null> {
    let next = token;
    for (let step = 0; step < MAX_SUCCESSOR_STEPS; step++) {
      next = refreshTokens.successorOf(next);
      const row = await sessions.findByHash(hashRefreshToken(next));
      if (!row || row.revoked_at !== null) return null;
      if (row.rotated_at === null) return next;
    }
    return null;
  }

  return {
    /** Refuses a registration at once while the new hashes' lane is full, before its body is read. */
    assertRoomToRegister: () => hashing.assertRoomForNewHash(),

    /** The caller has checked that sign-up is open and the address may register: only then is a hash spent. */
    async register(body: RegisterBody, client: SessionClient): Promise<SignedIn> {
      await assertUncommonPassword(body.password);
      const passwordHash = await hashing.hash(body.password);
      const account = { email: body.email, displayName: body.displayName, photo: null, passwordHash };
      const user = await accounts.create(account, { invitation: body.invitation });
      return startSession(user, client);
    },

    /** Unknown e-mail and wrong password fail alike, in the same time. */
    async login(body: LoginBody, client: SessionClient): Promise<SignedIn> {
      const user = await users.findByEmail(body.email);
      const stored = user?.password_hash ?? (await decoyHashPromise);
      const matches = await hashing.verify(body.password, stored);
      if (!user?.password_hash || !matches) throw new AppError(401, WRONG_CREDENTIALS);
      return startSession(user, client);
    },

    /** A new sign-in for a user an identity provider (auth/oidc/) or the command line has vouched for. */
    signInAs(user: UserRow, client: SessionClient = UNKNOWN_CLIENT): Promise<SignedIn> {
      return startSession(user, client);
    },

    /**
     * Rotates the refresh token. A rotated token presented again within the grace gets the
     * successor already given (never a new one); later, it revokes its whole family.
     */
    async refresh(refreshToken: string, client: SessionClient): Promise<SignedIn> {
      const now = clock.now();
      const row = await sessions.findByHash(hashRefreshToken(refreshToken));
      if (!row || row.revoked_at !== null || row.expires_at <= now) throw sessionEnded();
      const user = await users.findById(row.user_id);
      if (!user || user.disabled_at !== null) throw sessionEnded();
      const successor = refreshTokens.successorOf(refreshToken);
      if (row.rotated_at === null && (await sessions.rotate(row.id, now, sessionRow(user, row.family_id, successor, client)))) {
        return signedIn(user, row.family_id, successor);
      }
      const rotatedAt = (await sessions.findByHash(row.token_hash))?.rotated_at ?? now;
      const live = now - rotatedAt <= REFRESH_REUSE_GRACE_MS ? await liveSuccessor(refreshToken) : null;
      if (!live) {
        await sessions.revokeFamily(row.family_id, now);
        await endSessions([row.family_id]);
        throw sessionEnded();
      }
      return signedIn(user, row.family_id, live);
    },

    async logout(refreshToken: string): Promise<void> {
      const row = await sessions.findByHash(hashRefreshToken(refreshToken));
      if (!row) return;
      await sessions.revokeFamily(row.family_id, clock.now());
      await endSessions([row.family_id]);
    },

    /** The user's sessions in use; `current` is the one the request came with. */
    async sessionsOf(userId: string, current: string | null) {
      const rows = await sessions.live(userId, clock.now());
      return rows.map((row) => ({
        id: row.family_id,
        userAgent: row.user_agent,
        address: row.address,
        lastUsedAt: new Date(row.created_at).toISOString(),
        current: row.family_id === current,
      }));
    },

    /** Ends one of the user's sessions; another user's id, or one already ended, is a 404. */
    async endSession(userId: string, sessionId: string): Promise<void> {
      const ended = await sessions.revokeFamiliesOf(userId, { only: sessionId }, clock.now());
      if (ended.length === 0) throw new AppError(404, 'Session not found');
      await endSessions(ended);
    },

    /** "Sign out everywhere else": every session of the user but `keep`; how many were ended. */
    async endOtherSessions(userId: string, keep: string | null): Promise<number> {
      const ended = await sessions.revokeFamiliesOf(userId, { keep }, clock.now());
      await endSessions(ended);
      return ended.length;
    },

    /**
     * A new password (hashed by the caller) for a user who lost theirs, and every session of the
     * user ended, since whoever knew the old one may hold one; how many were ended.
     */
    async setPassword(userId: string, passwordHash: string): Promise<number> {
      const now = clock.now();
      const ended = await db.transaction().execute(async (trx) => {
        await createUsersStore(trx).setPasswordHash(userId, passwordHash, now);
        return createSessionsStore(trx).revokeFamiliesOf(userId, {}, now);
      });
      await endSessions(ended);
      return ended.length;
    },

    /**
     * A new password, checked against the rules and hashed here, and every session of the user
     * ended (with `endOtherCredentials`, its API tokens, app passwords and calendar address too):
     * a forgotten password's reset, or (`temporary`) one an administrator set, which its owner must
     * replace at next sign-in. `first` runs in the same transaction before anything is written (a
     * reset link is used there, so that a refused one changes nothing). How many sessions were ended.
     */
    async replacePassword(
      userId: string,
      password: string,
      {
        temporary = false,
        endOtherCredentials = false,
        first,
      }: { temporary?: boolean; endOtherCredentials?: boolean; first?: (trx: Kysely<Database>) => Promise<void> } = {},
    ): Promise<number> {
      await assertUncommonPassword(password);
      const passwordHash = await hashing.hash(password);
      const now = clock.now();
      const ended = await db.transaction().execute(async (trx) => {
        await first?.(trx);
        await createUsersStore(trx).setPasswordHash(userId, passwordHash, now, { temporary });
        if (endOtherCredentials) await deleteOtherCredentials(trx, userId);
        return createSessionsStore(trx).revokeFamiliesOf(userId, {}, now);
      });
      await endSessions(ended);
      return ended.length;
    },

    /**
     * Asks the current password (an account that has none, from a provider, sets its first), sets
     * the new one, and ends every other session, whose holder may be who learnt the old one; the
     * session asking (`keep`) stays signed in. `endOtherCredentials` ends the user's API tokens, app
     * passwords and calendar address with the password's change. How many sessions were ended.
     */
    async changePassword(userId: string, keep: string | null, body: ChangePasswordBody): Promise<number> {
      const user = await users.findById(userId);
      if (!user) throw sessionEnded();
      if (user.password_hash !== null) {
        if (body.current === undefined) throw new AppError(400, 'current: is required');
        if (!(await hashing.verify(body.current, user.password_hash))) throw new AppError(403, WRONG_CURRENT_PASSWORD);
      }
      await assertUncommonPassword(body.password);
      const passwordHash = await hashing.hash(body.password);
      await db.transaction().execute(async (trx) => {
        // A temporary password, once replaced, no longer holds the user to this call.
        await createUsersStore(trx).setPasswordHash(userId, passwordHash, clock.now());
        if (body.endOtherCredentials) await deleteOtherCredentials(trx, userId);
      });
      return this.endOtherSessions(userId, keep);
    },

    /** Expired rows are kept a while after expiry so that reuse of an old token is still recognised. */
    pruneSessions() {
      return sessions.deleteExpired(clock.now() - sessionMs);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
