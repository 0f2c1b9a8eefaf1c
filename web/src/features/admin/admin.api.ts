import { AdminUser, AdminUsers, Invitation, PendingInvitations, type UpdateUserBody } from '../../../../contract/admin.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

export const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    users: build.query<AdminUsers, void>({
      query: () => jsonCall('/api/admin/users', AdminUsers),
      providesTags: ['AdminUsers'],
    }),
    /** An invitation lists no account until it is taken, but the list is loaded again as it always was. */
    invite: build.mutation<Invitation, string>({
      query: (email) => jsonCall('/api/admin/invitations', Invitation, { method: 'POST', body: { email } }),
      invalidatesTags: ['AdminUsers', 'AdminInvitations'],
    }),
    invitations: build.query<PendingInvitations, void>({
      query: () => jsonCall('/api/admin/invitations', PendingInvitations),
      providesTags: ['AdminInvitations'],
    }),
    revokeInvitation: build.mutation<null, string>({
      query: (id) => emptyCall(`/api/admin/invitations/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      invalidatesTags: ['AdminInvitations'],
    }),
    updateUser: build.mutation<AdminUser, { id: string; change: UpdateUserBody }>({
      query: ({ id, change }) => jsonCall(userPath(id), AdminUser, { method: 'PUT', body: change }),
      invalidatesTags: ['AdminUsers'],
    }),
    deleteUser: build.mutation<null, string>({
      query: (id) => emptyCall(userPath(id), { method: 'DELETE' }),
      invalidatesTags: ['AdminUsers'],
    }),
  }),
});

export const {
  useUsersQuery,
  useInviteMutation,
  useInvitationsQuery,
  useRevokeInvitationMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
} = adminApi;
