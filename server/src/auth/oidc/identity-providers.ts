import * as client from 'openid-client';
import type { IdentityProviderId } from '../../../../contract/auth.ts';
import type { Config } from '../../config.ts';

/** Seconds to wait for a provider's discovery document, keys and token endpoint. */
const PROVIDER_TIMEOUT_SECONDS = 10;

export type IdentityProvider = {
  id: IdentityProviderId;
  /** What the user knows it as, in messages. */
  name: string;
  /**
   * Fetches the provider's configuration afresh: a sign-in starts with it, so that a provider
   * that has gone down is reported at once rather than in a popup stuck on a browser error.
   */
  discover(): Promise<client.Configuration>;
  /** The configuration last discovered, or a new discovery when there is none. */
  configuration(): Promise<client.Configuration>;
};

export type IdentityProviders = ReadonlyMap<IdentityProviderId, IdentityProvider>;

/** The configured providers: Google, and one generic OpenID Connect issuer. */
export function createIdentityProviders(config: Pick<Config, 'google' | 'oidc'>): IdentityProviders {
  const providers = new Map<IdentityProviderId, IdentityProvider>();
  if (config.google) providers.set('google', identityProvider('google', 'Google', config.google));
  if (config.oidc) providers.set('oidc', identityProvider('oidc', config.oidc.name, config.oidc));
  return providers;
}

function identityProvider(
  id: IdentityProviderId,
  name: string,
  { issuer, clientId, clientSecret }: { issuer: string; clientId: string; clientSecret: string },
): IdentityProvider {
  let discovered: Promise<client.Configuration> | null = null;
  const issuerUrl = new URL(issuer);
  // The configuration accepts plain http only for a provider on loopback.
  const execute = issuerUrl.protocol === 'http:' ? [client.allowInsecureRequests] : [];

  // The server starts, and keeps serving, while a provider is down: nothing is fetched until a sign-in.
  // The secret goes in the Basic header, the method every provider must accept (RFC 6749 §2.3.1).
  function discover(): Promise<client.Configuration> {
    const pending = client
      .discovery(issuerUrl, clientId, undefined, client.ClientSecretBasic(clientSecret), {
        execute,
        timeout: PROVIDER_TIMEOUT_SECONDS,
      })
      .catch((error: unknown) => {
        if (discovered === pending) discovered = null;
        throw error;
      });
    discovered = pending;
    return pending;
  }

  return { id, name, discover, configuration: () => discovered ?? discover() };
}
