import * as client from 'openid-client';
import type { IdentityProviderId } from '../../../../contract/auth.ts';
import { AppError, notFound } from '../../errors.ts';
import type { UserEvents } from '../../users/user-events.ts';
import type { AuthService, SignedIn } from '../auth.service.ts';
import type { SessionClient } from '../session-client.ts';
import type { IdentitiesService } from './identities.service.ts';
import type { IdentityProvider, IdentityProviders } from './identity-providers.ts';
import { profileFromClaims } from './profile-claims.ts';
import type { ProviderAccounts } from './provider-accounts.ts';
import type { SignInFlow, SignInFlows } from './sign-in-flow.ts';

const SCOPE = 'openid email profile';

/** What the popup's flow ended in: a session to hand to the opener, or a provider linked to the user who asked. */
export type Finished = { linked: false; signedIn: SignedIn } | { linked: true };

type Dependencies = {
  providers: IdentityProviders;
  flows: SignInFlows;
  accounts: ProviderAccounts;
  identities: Pick<IdentitiesService, 'link'>;
  auth: AuthService;
  events: UserEvents;
};

/** The authorization-code flow with PKCE, state and nonce, from the redirect to the provider to a session. */
export function createOidcService({ providers, flows, accounts, identities, auth, events }: Dependencies) {
  return {
    provider(id: string): IdentityProvider {
      const provider = providers.get(id as IdentityProviderId);
      if (!provider) throw notFound('Sign-in provider');
      return provider;
    },

    /** Where to send the browser, and the sealed flow it must bring back to the callback; `link` when it links rather than signs in. */
    async start(
      provider: IdentityProvider,
      redirectUri: string,
      link?: SignInFlow['link'],
    ): Promise<{ location: string; flowToken: string }> {
      const configuration = await reach(provider, provider.discover());
      const flow: SignInFlow = {
        provider: provider.id,
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
        ...(link && { link }),
      };
      const location = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { location: location.href, flowToken: await flows.seal(flow) };
    },

    /** The flow this browser started with this provider; a 400 when there is none. */
    async flowOf(provider: IdentityProvider, flowToken: string | undefined): Promise<SignInFlow> {
      const flow = await flows.open(flowToken);
      if (!flow || flow.provider !== provider.id) {
        throw new AppError(400, 'This sign-in took too long or was not started in this browser; please try again');
      }
      return flow;
    },

    /**
     * `callbackUrl` is the redirect URI with the provider's reply in its query. A sign-in ends in a
     * session; a link adds the provider account to the user who asked for it, and signs no one in.
     */
    async finish(provider: IdentityProvider, callbackUrl: URL, flow: SignInFlow, device: SessionClient): Promise<Finished> {
      if (callbackUrl.searchParams.get('state') !== flow.state) {
        throw new AppError(400, 'This sign-in could not be verified (its state does not match); please try again');
      }
      const configuration = await reach(provider, provider.configuration());
      const tokens = await reach(
        provider,
        client.authorizationCodeGrant(configuration, callbackUrl, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        }),
      );
      const idClaims = tokens.claims();
      if (!idClaims) throw new AppError(502, `${provider.name} sent no ID token`);
      // Many providers keep e-mail, name and photo for the userinfo endpoint rather than the ID token.
      const userInfo =
        idClaims.email === undefined
          ? await reach(provider, client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub))
          : {};
      const profile = profileFromClaims({ ...userInfo, ...idClaims });
      if (flow.link) {
        await identities.link(flow.link, provider, profile);
        return { linked: true };
      }
      const user = await accounts.signIn(provider, profile);
      await events.publish(user.id);
      return { linked: false, signedIn: await auth.signInAs(user, device) };
    },
  };
}
export type OidcService = ReturnType<typeof createOidcService>;

/** The provider's own refusals and an unreachable provider, as messages a user can act on. */
async function reach<T>(provider: IdentityProvider, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof client.AuthorizationResponseError) {
      if (error.error === 'access_denied') throw new AppError(403, `Sign-in was cancelled at ${provider.name}`);
      throw new AppError(502, `${provider.name} refused the sign-in: ${error.error_description ?? error.error}`);
    }
    if (error instanceof client.ResponseBodyError) {
      throw new AppError(502, `${provider.name} refused the sign-in: ${error.error_description ?? error.error}`);
    }
    if (isNetworkFailure(error)) throw new AppError(502, `${provider.name} cannot be reached; please try again later`);
    throw error;
  }
}

/** fetch fails with a TypeError when it gets no answer, and openid-client's timeout aborts it. */
function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const cause = error.cause instanceof Error ? error.cause : undefined;
  return (
    error instanceof TypeError ||
    error.name === 'TimeoutError' ||
    error.name === 'AbortError' ||
    cause?.name === 'TimeoutError' ||
    cause instanceof TypeError
  );
}
