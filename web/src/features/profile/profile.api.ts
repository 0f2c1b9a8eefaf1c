import { AuthReply } from '../../../../contract/auth.ts';
import { UserRecord, type UpdateMeBody } from '../../../../contract/users.ts';
import { api, jsonCall } from '../../api/api.ts';
import type { HttpClient } from '../../api/http-client.ts';
import { followProfileEvents } from './profile.events.ts';

const updateMe = (body: UpdateMeBody) => jsonCall('/api/users/me', UserRecord, { method: 'PUT', body });

/** A first sign-in takes the browser's zone, so that notices are due in the user's own time. */
async function loadProfile(client: HttpClient, signal: AbortSignal): Promise<UserRecord> {
  const record = await client.json('/api/users/me', UserRecord, { signal });
  if (record.timezone !== null) return record;
  return client.json('/api/users/me', UserRecord, { method: 'PUT', body: { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone } });
}

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The user's record, then kept current from the server's stream, so a change made in another tab shows here. */
    profile: build.query<UserRecord, void>({
      query: () => loadProfile,
      // The stream stays open only while the app follows the profile.
      keepUnusedDataFor: 0,
      async onCacheEntryAdded(_arg, { cacheDataLoaded, cacheEntryRemoved, updateCachedData, extra }) {
        const stop = new AbortController();
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        void followProfileEvents((extra as { client: HttpClient }).client, (record) => updateCachedData(() => record), stop.signal);
        await cacheEntryRemoved;
        stop.abort();
      },
    }),
    updateTimezone: build.mutation<UserRecord, string>({
      query: (timezone) => updateMe({ timezone }),
    }),
    /** A new name or e-mail (or both); the record as saved. */
    updateIdentity: build.mutation<UserRecord, Pick<UpdateMeBody, 'displayName' | 'email'>>({
      query: (change) => updateMe(change),
    }),
    /** A new bearer token from the refresh cookie, which names the account's name and e-mail as they are now. */
    renewToken: build.mutation<AuthReply, void>({
      query: () => jsonCall('/auth/refresh', AuthReply, { method: 'POST', anonymous: true }),
    }),
  }),
});

export const {
  useProfileQuery,
  useUpdateTimezoneMutation,
  useUpdateIdentityMutation,
  useRenewTokenMutation,
} = profileApi;
