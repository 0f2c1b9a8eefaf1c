import { EndedSessions, UserSessions, type UserSession } from '../../../../contract/sessions.ts';
import type { HttpClient } from '../../api/http-client.ts';

export function fetchSessions(client: HttpClient, signal?: AbortSignal): Promise<UserSession[]> {
  return client.json('/api/users/me/sessions', UserSessions, { signal });
}

export function endSession(client: HttpClient, id: string): Promise<void> {
  return client.empty(`/api/users/me/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** "Sign out everywhere else": every session but this browser's. */
export function endOtherSessions(client: HttpClient): Promise<EndedSessions> {
  return client.json('/api/users/me/sessions', EndedSessions, { method: 'DELETE' });
}
