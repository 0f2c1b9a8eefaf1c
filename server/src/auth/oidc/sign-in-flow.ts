import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { IdentityProviderId } from '../../../../contract/auth.ts';
import type { Clock } from '../../clock.ts';

/** How long a user may spend at the provider between the start of a sign-in and its callback. */
export const SIGN_IN_FLOW_SECONDS = 10 * 60;

/** Not the bearer tokens' issuer, so that neither kind of token passes for the other. */
const FLOW_ISSUER = 'organiser/oidc-sign-in';

/** What the callback must check against: kept in the browser that started the sign-in, signed by the server. */
const SignInFlow = z.object({
  provider: IdentityProviderId,
  state: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
  /** Present when the popup links the provider to a signed-in account rather than signs in. */
  link: z.object({ userId: z.string(), sessionId: z.string().nullable() }).optional(),
});
export type SignInFlow = z.infer<typeof SignInFlow>;

/**
 * A sign-in in progress is a signed JWT in a cookie rather than a database row, so any server
 * instance can finish what another started, and nothing is left behind by abandoned sign-ins.
 */
export function createSignInFlows(secret: Uint8Array, clock: Clock) {
  const seconds = () => Math.floor(clock.now() / 1000);
  return {
    seal(flow: SignInFlow): Promise<string> {
      return new SignJWT(flow)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(FLOW_ISSUER)
        .setIssuedAt(seconds())
        .setExpirationTime(seconds() + SIGN_IN_FLOW_SECONDS)
        .sign(secret);
    },
    /** The flow, or null when the token is missing, expired or not ours. */
    async open(token: string | undefined): Promise<SignInFlow | null> {
      if (!token) return null;
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          issuer: FLOW_ISSUER,
          currentDate: new Date(clock.now()),
        });
        return SignInFlow.parse(payload);
      } catch {
        return null;
      }
    },
  };
}
export type SignInFlows = ReturnType<typeof createSignInFlows>;
