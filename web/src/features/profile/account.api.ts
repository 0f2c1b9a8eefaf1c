import type { ChangePasswordBody, DeleteAccountBody } from '../../../../contract/account.ts';
import { EndedSessions } from '../../../../contract/sessions.ts';
import type { HttpClient } from '../../api/http-client.ts';

/** Sets a new password; every other session is signed out. */
export function changePassword(client: HttpClient, body: ChangePasswordBody): Promise<EndedSessions> {
  return client.json('/api/users/me/password', EndedSessions, { method: 'PUT', body });
}

/** Deletes the signed-in account and everything it owns; `email` is the account's, typed again to confirm. */
export function deleteMyAccount(client: HttpClient, body: DeleteAccountBody): Promise<void> {
  return client.empty('/api/users/me', { method: 'DELETE', body });
}
