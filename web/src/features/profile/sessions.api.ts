import { EndedSessions, UserSessions, type UserSession } from '../../../../contract/sessions.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

export const sessionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    sessions: build.query<UserSession[], void>({
      query: () => jsonCall('/api/users/me/sessions', UserSessions),
      providesTags: ['Sessions'],
    }),
    endSession: build.mutation<null, string>({
      query: (id) => emptyCall(`/api/users/me/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    /** "Sign out everywhere else": every session but this browser's. */
    endOtherSessions: build.mutation<EndedSessions, void>({
      query: () => jsonCall('/api/users/me/sessions', EndedSessions, { method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
  }),
});

export const { useSessionsQuery, useEndSessionMutation, useEndOtherSessionsMutation } = sessionsApi;
