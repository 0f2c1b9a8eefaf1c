import { USER_EVENT, UserRecord } from '../../../../contract/users.ts';
import { type FollowOptions, followEvents } from '../../api/event-stream.ts';
import type { HttpClient } from '../../api/http-client.ts';

const PROFILE_STREAM = { path: '/api/users/me/events', event: USER_EVENT, schema: UserRecord, name: 'profile' };

/** Keeps the user-record stream open until `signal` aborts, handing each record received to `onRecord` (see `followEvents`). */
export function followProfileEvents(
  client: HttpClient,
  onRecord: (record: UserRecord) => void,
  signal: AbortSignal,
  options: FollowOptions = {},
): Promise<void> {
  return followEvents(client, PROFILE_STREAM, onRecord, signal, options);
}
