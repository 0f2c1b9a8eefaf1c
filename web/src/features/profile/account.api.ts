import type { ChangePasswordBody } from '../../../../contract/account.ts';
import { EndedSessions } from '../../../../contract/sessions.ts';
import type { HttpClient } from '../../api/http-client.ts';

/** Sets a new password; every other session is signed out. */
export function changePassword(client: HttpClient, body: ChangePasswordBody): Promise<EndedSessions> {
  return client.json('/api/users/me/password', EndedSessions, { method: 'PUT', body });
}
