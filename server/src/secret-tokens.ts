import { createHash, randomBytes } from 'node:crypto';

/**
 * 32 random bytes (256 bits), base64url: too many to guess, so unknown tokens need no rate limit.
 * Only their SHA-256 is stored — a plain hash suffices for a secret this long — and a token is
 * found by it. Calendar feeds, invitations and password resets each use one.
 */
const TOKEN_BYTES = 32;

export const newSecretToken = () => randomBytes(TOKEN_BYTES).toString('base64url');

export const hashOfSecretToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Not a token this server makes (43 base64url characters): answered without a database read. */
export const looksLikeSecretToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);
