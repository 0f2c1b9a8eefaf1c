import type { IdentityProviderId } from '../../../../contract/auth.ts';
import { SignInMethods } from '../../../../contract/sign-in-methods.ts';
import type { HttpClient } from '../../api/http-client.ts';

export function fetchSignInMethods(client: HttpClient, signal?: AbortSignal): Promise<SignInMethods> {
  return client.json('/api/users/me/identities', SignInMethods, { signal });
}

/** Leaves the server's link intent for this account in a cookie, for the popup's start to find. */
export function askToLink(client: HttpClient, provider: IdentityProviderId): Promise<void> {
  return client.empty('/api/users/me/identities', { method: 'POST', body: { provider } });
}

/** Where the popup goes once the link intent is there. */
export const linkStartPath = (provider: IdentityProviderId) => `/auth/oidc/${provider}/start?intent=link`;

export function unlinkIdentity(client: HttpClient, id: string): Promise<void> {
  return client.empty(`/api/users/me/identities/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
