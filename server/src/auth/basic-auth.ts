import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { AppError } from '../errors.ts';
import type { Database } from '../storage/schema.ts';
import { createUsersStore } from '../users/users.store.ts';
import type { AppPasswords } from './app-passwords.ts';
import type { HashingQueue } from './hashing-queue.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { decoyHashPromise } from './passwords.ts';

/** On a 401, so that e-readers and browsers ask for a user name and password. */
export const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="Organiser", charset="UTF-8"' };

export const basicSignInRequired = () => new AppError(401, 'Sign-in required: your e-mail and an app password', BASIC_CHALLENGE);

const wrongCredentials = () => new AppError(401, 'Wrong e-mail or password', BASIC_CHALLENGE);

/** Account passwords verified lately: an e-reader signs every request, and scrypt costs 0.1 s each. */
const VERIFIED_ACCOUNT_PASSWORDS = 1000;
const VERIFIED_FOR_MS = 10 * 60 * 1000;

/** As passwords are refused when set (contract/auth.ts). */
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * `Authorization: Basic base64(email:password)`; null when the request carries no Basic credential.
 * A control character in either half is refused here, before any query: no e-mail or password
 * holds one, and PostgreSQL fails on U+0000 where SQLite finds no row.
 */
export function basicCredentialOf(request: FastifyRequest): { email: string; password: string } | null {
  const match = request.headers.authorization?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  if (CONTROL_CHARACTER.test(decoded)) throw wrongCredentials();
  return { email: decoded.slice(0, colon).trim().toLowerCase(), password: decoded.slice(colon + 1) };
}

type Dependencies = {
  db: Kysely<Database>;
  appPasswords: Pick<AppPasswords, 'matches'>;
  hashing: Pick<HashingQueue, 'verify'>;
  logins: LoginLimiter;
};

/**
 * HTTP Basic for e-readers (OPDS, and the cover and file calls they follow): the e-mail with one of
 * the user's app passwords, or with the account password of a local account. Failures count with
 * the sign-in limiter, per account and per address, as wrong passwords at the sign-in form do.
 * Answers the user's id, null without a Basic header, and throws 401 (with the challenge) or 429.
 */
export function createBasicAuth({ db, appPasswords, hashing, logins }: Dependencies) {
  const users = createUsersStore(db);
  // Remembered by a hash of e-mail and password, with the stored hash they matched: a changed
  // password no longer equals it, so the old one stops working at once.
  const verified = new LRUCache<string, string>({ max: VERIFIED_ACCOUNT_PASSWORDS, ttl: VERIFIED_FOR_MS });
  const cacheKey = (email: string, password: string) => createHash('sha256').update(`${email}\0${password}`).digest('hex');

  async function accountPasswordMatches(email: string, password: string, stored: string | null): Promise<boolean> {
    const key = cacheKey(email, password);
    if (stored !== null && verified.get(key) === stored) return true;
    const matches = await hashing.verify(password, stored ?? (await decoyHashPromise));
    if (matches && stored !== null) verified.set(key, stored);
    return matches && stored !== null;
  }

  return async function userOfBasicCredential(request: FastifyRequest): Promise<string | null> {
    const credential = basicCredentialOf(request);
    if (!credential) return null;
    const { email, password } = credential;
    await logins.assertAllowed(request.ip, email);
    const user = await users.findByEmail(email);
    const matches =
      user !== undefined && (await appPasswords.matches(user.id, password))
        ? true
        : await accountPasswordMatches(email, password, user?.password_hash ?? null);
    if (!user || !matches) {
      await logins.recordFailure(request.ip, email);
      throw wrongCredentials();
    }
    await logins.recordSuccess(request.ip, email);
    // Read with the user on every request, so a disabled account's e-reader stops at once.
    if (user.disabled_at !== null) throw new AppError(401, 'This account has been disabled; ask an administrator', BASIC_CHALLENGE);
    return user.id;
  };
}
export type BasicAuth = ReturnType<typeof createBasicAuth>;
