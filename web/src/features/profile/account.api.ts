import type { ChangePasswordBody, DeleteAccountBody } from '../../../../contract/account.ts';
import { EndedSessions } from '../../../../contract/sessions.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';
import { saveDownload } from '../../lib/save-download.ts';

/** The account's own data, as a file the browser saves. */
export type AccountExport = 'bookmarks' | 'tasks';

const EXPORTS: Record<AccountExport, { path: string; name: string }> = {
  bookmarks: { path: '/api/users/me/export/bookmarks', name: 'bookmarks.html' },
  tasks: { path: '/api/users/me/export/tasks', name: 'tasks.json' },
};

export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Sets a new password: every other session is signed out, a first password lets the last
     * provider go, and `endOtherCredentials` ends the API tokens, app passwords and calendar address.
     */
    changePassword: build.mutation<EndedSessions, ChangePasswordBody>({
      query: (body) => jsonCall('/api/users/me/password', EndedSessions, { method: 'PUT', body }),
      invalidatesTags: (_reply, _failure, body) =>
        body.endOtherCredentials === true ? ['Sessions', 'SignInMethods', 'ApiTokens', 'AppPasswords', 'Calendar'] : ['Sessions', 'SignInMethods'],
    }),
    /** Deletes the signed-in account and everything it owns; `email` is the account's, typed again to confirm. */
    deleteMyAccount: build.mutation<null, DeleteAccountBody>({
      query: (body) => emptyCall('/api/users/me', { method: 'DELETE', body }),
    }),
    /** The bookmarks as a browser bookmarks file, or the tasks with their completion history as JSON. */
    saveAccountExport: build.mutation<null, AccountExport>({
      query: (what) => (client) => saveDownload(client, EXPORTS[what].path, EXPORTS[what].name),
    }),
  }),
});

export const { useChangePasswordMutation, useDeleteMyAccountMutation, useSaveAccountExportMutation } = accountApi;
