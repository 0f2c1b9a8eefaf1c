import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../clock.ts';
import { AppError } from '../errors.ts';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
const ISSUER = 'organiser';

/**
 * `sessionId` is the sign-in (session family) the token was issued to; null for tokens issued
 * before it was recorded. `passwordChangeRequired`: the user signed in with a temporary password.
 */
export type TokenUser = {
  uid: string;
  email: string;
  displayName: string;
  admin: boolean;
  passwordChangeRequired: boolean;
  sessionId: string | null;
};

/** Tokens remembered as verified; a household has a handful in use at once. */
const VERIFIED_TOKENS = 1000;

/** Issues and checks the short-lived bearer JWT (HS256; any other algorithm, `none` included, is refused). */
export function createAccessTokens(secret: Uint8Array, clock: Clock) {
  const seconds = () => Math.floor(clock.now() / 1000);
  // Checking a signature costs more than a catalogue search served from memory: a token seen
  // before is trusted until its own expiry, since nothing else about it can change.
  const verified = new Map<string, { user: TokenUser; expiresAt: number }>();
  return {
    async sign(user: Omit<TokenUser, 'sessionId' | 'passwordChangeRequired'> & { passwordChangeRequired?: boolean }, sessionId: string): Promise<string> {
      const now = seconds();
      const claims = { email: user.email, name: user.displayName, admin: user.admin, sid: sessionId };
      return new SignJWT(user.passwordChangeRequired ? { ...claims, pwc: true } : claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.uid)
        .setIssuer(ISSUER)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_SECONDS)
        .sign(secret);
    },
    async verify(token: string): Promise<TokenUser> {
      const known = verified.get(token);
      if (known && seconds() < known.expiresAt) return known.user;
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          currentDate: new Date(clock.now()),
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        if (typeof payload.email !== 'string' || typeof payload.name !== 'string' || !payload.sub) {
          throw new AppError(401, 'Invalid token');
        }
        const user = {
          uid: payload.sub,
          email: payload.email,
          displayName: payload.name,
          admin: payload.admin === true,
          passwordChangeRequired: payload.pwc === true,
          sessionId: typeof payload.sid === 'string' ? payload.sid : null,
        };
        if (verified.size === VERIFIED_TOKENS) verified.clear();
        verified.set(token, { user, expiresAt: payload.exp! });
        return user;
      } catch (error) {
        if (error instanceof AppError) throw error;
        if (error instanceof joseErrors.JWTExpired) throw new AppError(401, 'Token expired');
        throw new AppError(401, 'Invalid token');
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;
