import type { ChangePasswordBody, DeleteAccountBody } from '../../../../contract/account.ts';
import { EndedSessions } from '../../../../contract/sessions.ts';
import type { HttpClient } from '../../api/http-client.ts';
import { saveDownload } from '../../lib/save-download.ts';

/** Sets a new password; every other session is signed out. */
export function changePassword(client: HttpClient, body: ChangePasswordBody): Promise<EndedSessions> {
  return client.json('/api/users/me/password', EndedSessions, { method: 'PUT', body });
}

/** Deletes the signed-in account and everything it owns; `email` is the account's, typed again to confirm. */
export function deleteMyAccount(client: HttpClient, body: DeleteAccountBody): Promise<void> {
  return client.empty('/api/users/me', { method: 'DELETE', body });
}

/** Saves the account's bookmarks as a browser bookmarks file. */
export const saveBookmarksExport = (client: HttpClient) => saveDownload(client, '/api/users/me/export/bookmarks', 'bookmarks.html');

/** Saves the account's tasks, with their completion history, as JSON. */
export const saveTasksExport = (client: HttpClient) => saveDownload(client, '/api/users/me/export/tasks', 'tasks.json');
