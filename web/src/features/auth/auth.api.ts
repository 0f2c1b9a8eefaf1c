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

/** A bearer token from the refresh cookie: after a provider sign-in, as after any expired token. */
export function refreshSession(client: HttpClient): Promise<AuthReply> {
  return client.json('/auth/refresh', AuthReply, { method: 'POST', anonymous: true });
}
