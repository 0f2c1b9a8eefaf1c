import { type AppPassword, AppPasswords, NewAppPassword } from '../../../../contract/app-passwords.ts';
import type { HttpClient } from '../../api/http-client.ts';

export function fetchAppPasswords(client: HttpClient, signal?: AbortSignal): Promise<AppPassword[]> {
  return client.json('/api/users/me/app-passwords', AppPasswords, { signal });
}

/** A new app password: the reply holds the password, which the server never shows again. */
export function createAppPassword(client: HttpClient, name: string): Promise<NewAppPassword> {
  return client.json('/api/users/me/app-passwords', NewAppPassword, { method: 'POST', body: { name } });
}

export function revokeAppPassword(client: HttpClient, id: string): Promise<void> {
  return client.empty(`/api/users/me/app-passwords/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
