import { AuthReply } from '../../../../contract/auth.ts';
import { CalendarStatus, CalendarSubscription } from '../../../../contract/calendar.ts';
import { UserRecord, type UpdateMeBody } from '../../../../contract/users.ts';
import type { HttpClient } from '../../api/http-client.ts';

export function fetchProfile(client: HttpClient, signal?: AbortSignal): Promise<UserRecord> {
  return client.json('/api/users/me', UserRecord, { signal });
}

export function updateTimezone(client: HttpClient, timezone: string): Promise<UserRecord> {
  return client.json('/api/users/me', UserRecord, { method: 'PUT', body: { timezone } satisfies UpdateMeBody });
}

/** A first sign-in takes the browser's zone, so that notices are due in the user's own time. */
export async function loadProfile(client: HttpClient, signal?: AbortSignal): Promise<UserRecord> {
  const record = await fetchProfile(client, signal);
  if (record.timezone !== null) return record;
  return updateTimezone(client, Intl.DateTimeFormat().resolvedOptions().timeZone);
}

export function fetchCalendarStatus(client: HttpClient, signal?: AbortSignal): Promise<CalendarStatus> {
  return client.json('/api/users/me/calendar', CalendarStatus, { signal });
}

/** A new private address for the calendar feed; the one before stops working. */
export function makeCalendarAddress(client: HttpClient): Promise<CalendarSubscription> {
  return client.json('/api/users/me/calendar', CalendarSubscription, { method: 'POST' });
}

export function turnCalendarOff(client: HttpClient): Promise<void> {
  return client.empty('/api/users/me/calendar', { method: 'DELETE' });
}

/** A new name or e-mail (or both); the record as saved. */
export function updateIdentity(client: HttpClient, change: Pick<UpdateMeBody, 'displayName' | 'email'>): Promise<UserRecord> {
  return client.json('/api/users/me', UserRecord, { method: 'PUT', body: change satisfies UpdateMeBody });
}

/** A new bearer token from the refresh cookie, which names the account's name and e-mail as they are now. */
export function renewToken(client: HttpClient): Promise<AuthReply> {
  return client.json('/auth/refresh', AuthReply, { method: 'POST', anonymous: true });
}
