import { timingSafeEqual } from 'node:crypto';
import { type RequestCheck, requireUser } from '../auth/require-user.ts';
import type { AccessTokens } from '../auth/tokens.ts';

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The catalogue is readable by any signed-in user, or by a caller holding the shared
 * `X-API-Key` (DESIGN §4 Catalogue); a key reader has no user, so it cannot upload.
 */
export function requireReader(tokens: AccessTokens, apiKey: string | undefined): RequestCheck {
  const bearer = requireUser(tokens);
  return async function checkReader(request) {
    const given = request.headers['x-api-key'];
    if (apiKey && typeof given === 'string' && !request.headers.authorization && sameSecret(given, apiKey)) return;
    await bearer(request);
  };
}
