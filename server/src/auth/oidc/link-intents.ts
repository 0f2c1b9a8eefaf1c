import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { IdentityProviderId } from '../../../../contract/auth.ts';
import type { Clock } from '../../clock.ts';

/** From the profile's Link button to the popup's start: a few seconds, unless the machine is slow. */
export const LINK_INTENT_SECONDS = 2 * 60;

/** Neither the bearer tokens' issuer nor the sign-in flows', so that no other token passes for one. */
const INTENT_ISSUER = 'organiser/oidc-link';

/**
 * A signed-in user's request to link a provider: made by a call with their bearer token, carried
 * to the popup's start in an HttpOnly cookie, so the account to link to never comes from the page.
 */
export const LinkIntent = z.object({
  userId: z.string(),
  /** The session that asked: linking is refused once it has ended. Null for tokens that name none. */
  sessionId: z.string().nullable(),
  provider: IdentityProviderId,
});
export type LinkIntent = z.infer<typeof LinkIntent>;

export function createLinkIntents(secret: Uint8Array, clock: Clock) {
  const seconds = () => Math.floor(clock.now() / 1000);
  return {
    seal(intent: LinkIntent): Promise<string> {
      return new SignJWT(intent)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(INTENT_ISSUER)
        .setIssuedAt(seconds())
        .setExpirationTime(seconds() + LINK_INTENT_SECONDS)
        .sign(secret);
    },
    /** The intent, or null when the token is missing, expired or not ours. */
    async open(token: string | undefined): Promise<LinkIntent | null> {
      if (!token) return null;
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          issuer: INTENT_ISSUER,
          currentDate: new Date(clock.now()),
        });
        return LinkIntent.parse(payload);
      } catch {
        return null;
      }
    },
  };
}
export type LinkIntents = ReturnType<typeof createLinkIntents>;
