import { z } from 'zod';
import {
  AuthReply,
  InvitationInfo,
  PasswordResetAccepted,
  Providers,
  type LoginBody,
  type PasswordResetConfirmBody,
  type RegisterBody,
} from '../../../../contract/auth.ts';
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

/** The e-mail an invitation is for, while the invitation is good. */
export function fetchInvitation(client: HttpClient, token: string, signal?: AbortSignal): Promise<InvitationInfo> {
  return client.json(`/auth/invitations/${encodeURIComponent(token)}`, InvitationInfo, { signal, anonymous: true });
}

/** Asks for a reset link by mail; the answer is the same whether or not the address has an account. */
export async function requestPasswordReset(client: HttpClient, email: string): Promise<string> {
  const reply = await client.json('/auth/password-reset', PasswordResetAccepted, { method: 'POST', body: { email }, anonymous: true });
  return reply.message;
}

export function confirmPasswordReset(client: HttpClient, body: PasswordResetConfirmBody): Promise<void> {
  return client.empty('/auth/password-reset/confirm', { method: 'POST', body, anonymous: true });
}

/** Replaces a temporary password (the profile's own password change, asked before anything else). */
export async function replaceTemporaryPassword(client: HttpClient, current: string, password: string): Promise<void> {
  await client.json('/api/users/me/password', z.object({ ended: z.number() }), { method: 'PUT', body: { current, password } });
}
