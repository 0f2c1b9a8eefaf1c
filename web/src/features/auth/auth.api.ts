import { AuthReply, Providers, type LoginBody, type RegisterBody } from '../../../../contract/auth.ts';
import type { HttpClient } from '../../api/http-client.ts';

export function fetchProviders(client: HttpClient, signal?: AbortSignal): Promise<Providers> {
  return client.json('/auth/providers', Providers, { signal, anonymous: true });
}

export function logIn(client: HttpClient, body: LoginBody): Promise<AuthReply> {
  return client.json('/auth/login', AuthReply, { method: 'POST', body, anonymous: true });
}

export function register(client: HttpClient, body: RegisterBody): Promise<AuthReply> {
  return client.json('/auth/register', AuthReply, { method: 'POST', body, anonymous: true });
}

/** Revokes the session on the server, which also clears the refresh cookie. */
export function logOut(client: HttpClient): Promise<void> {
  return client.empty('/auth/logout', { method: 'POST', anonymous: true });
}

type OidcProvider = 'google' | 'oidc';

/** The popup runs the provider's sign-in; the page it ends on reports back to this window. */
export function openSignInPopup(provider: OidcProvider): void {
  window.open(`/auth/oidc/${provider}/start`, 'organiser-sign-in', 'popup,width=480,height=640');
}
