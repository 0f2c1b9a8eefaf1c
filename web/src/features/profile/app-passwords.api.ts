import { type AppPassword, AppPasswords, NewAppPassword } from '../../../../contract/app-passwords.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

export const appPasswordsApi = api.injectEndpoints({
  endpoints: (build) => ({
    appPasswords: build.query<AppPassword[], void>({
      query: () => jsonCall('/api/users/me/app-passwords', AppPasswords),
      providesTags: ['AppPasswords'],
    }),
    /** A new app password: the reply holds the password, which the server never shows again. */
    createAppPassword: build.mutation<NewAppPassword, string>({
      query: (name) => jsonCall('/api/users/me/app-passwords', NewAppPassword, { method: 'POST', body: { name } }),
      invalidatesTags: ['AppPasswords'],
    }),
    revokeAppPassword: build.mutation<null, string>({
      query: (id) => emptyCall(`/api/users/me/app-passwords/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      invalidatesTags: ['AppPasswords'],
    }),
  }),
});

export const { useAppPasswordsQuery, useCreateAppPasswordMutation, useRevokeAppPasswordMutation } = appPasswordsApi;
