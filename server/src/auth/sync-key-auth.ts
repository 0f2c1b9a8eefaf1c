import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { AppPasswords } from './app-passwords.ts';
import type { LoginLimiter } from './login-limiter.ts';

/** KOReader's sync protocol answers every refusal of its credentials with this one message. */
export const syncUnauthorized = () => new AppError(401, 'Unauthorized');

const CONTROL_CHARACTER = /\p{Cc}/u;

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : '';
};

type Dependencies = { appPasswords: Pick<AppPasswords, 'syncKeyOwner'>; logins: LoginLimiter };

/**
 * KOReader's progress sync signs every request with `x-auth-user` (here the account's e-mail) and
 * `x-auth-key` (the MD5 of the password as typed): only an app password's key is taken, never the
 * account password's, which is kept as scrypt and could not be checked from an MD5 anyway.
 * Failures count with the sign-in limiter, as at the sign-in form and in HTTP Basic. Answers the
 * user's id, null when the request carries neither header; throws 401 or 429.
 */
export function createSyncKeyAuth({ appPasswords, logins }: Dependencies) {
  return async function userOfSyncKey(request: FastifyRequest): Promise<string | null> {
    const email = header(request, 'x-auth-user').toLowerCase();
    const key = header(request, 'x-auth-key');
    if (email === '' && key === '') return null;
    // The protocol's own check: a user name holds no colon, and neither is empty.
    if (email === '' || key === '' || email.includes(':') || CONTROL_CHARACTER.test(email)) throw syncUnauthorized();
    await logins.assertAllowed(request.ip, email);
    const owner = await appPasswords.syncKeyOwner(email, key);
    if (!owner?.matches) {
      await logins.recordFailure(request.ip, email);
      throw syncUnauthorized();
    }
    await logins.recordSuccess(request.ip, email);
    if (owner.disabled) throw new AppError(401, 'This account has been disabled; ask an administrator');
    return owner.userId;
  };
}
export type SyncKeyAuth = ReturnType<typeof createSyncKeyAuth>;
