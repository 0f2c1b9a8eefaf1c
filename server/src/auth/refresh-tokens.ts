import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Refresh tokens are random at sign-in; each rotation's successor is an HMAC of the token it
 * replaces, so that the server can give the same successor again to a second tab that presents
 * the old token within the grace period, without keeping any token but as its SHA-256.
 */
export function createRefreshTokens(secret: Uint8Array) {
  const successorKey = createHmac('sha256', secret).update('organiser/refresh-successor').digest();
  return {
    fresh(): string {
      return randomBytes(32).toString('base64url');
    },
    successorOf(token: string): string {
      return createHmac('sha256', successorKey).update(token).digest('base64url');
    },
  };
}
export type RefreshTokens = ReturnType<typeof createRefreshTokens>;

/** Only this is stored. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
