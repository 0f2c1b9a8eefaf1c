import { z } from 'zod';
import {
  AuthReply,
  InvitationInfo,
  PasswordResetAccepted,
  Providers,
  type LoginBody,
  type PasswordResetConfirmBody,
  type RegisterBody,
} from '../../../../contract/auth.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    providers: build.query<Providers, void>({
      query: () => jsonCall('/auth/providers', Providers, { anonymous: true }),
    }),
    logIn: build.mutation<AuthReply, LoginBody>({
      query: (body) => jsonCall('/auth/login', AuthReply, { method: 'POST', body, anonymous: true }),
    }),
    register: build.mutation<AuthReply, RegisterBody>({
      query: (body) => jsonCall('/auth/register', AuthReply, { method: 'POST', body, anonymous: true }),
    }),
    /** Revokes the session on the server, which also clears the refresh cookie. */
    logOut: build.mutation<null, void>({
      query: () => emptyCall('/auth/logout', { method: 'POST', anonymous: true }),
    }),
    /** A bearer token from the refresh cookie: after a provider sign-in, as after any expired token. */
    refreshSession: build.mutation<AuthReply, void>({
      query: () => jsonCall('/auth/refresh', AuthReply, { method: 'POST', anonymous: true }),
    }),
    /** The e-mail an invitation is for, while the invitation is good. */
    invitation: build.query<InvitationInfo, string>({
      query: (token) => jsonCall(`/auth/invitations/${encodeURIComponent(token)}`, InvitationInfo, { anonymous: true }),
    }),
    /** Asks for a reset link by mail; the answer is the same whether or not the address has an account. */
    requestPasswordReset: build.mutation<z.infer<typeof PasswordResetAccepted>, string>({
      query: (email) => jsonCall('/auth/password-reset', PasswordResetAccepted, { method: 'POST', body: { email }, anonymous: true }),
    }),
    confirmPasswordReset: build.mutation<null, PasswordResetConfirmBody>({
      query: (body) => emptyCall('/auth/password-reset/confirm', { method: 'POST', body, anonymous: true }),
    }),
    /** Replaces a temporary password (the profile's own password change, asked before anything else). */
    replaceTemporaryPassword: build.mutation<{ ended: number }, { current: string; password: string }>({
      query: (body) => jsonCall('/api/users/me/password', z.object({ ended: z.number() }), { method: 'PUT', body }),
    }),
  }),
});

export const {
  useProvidersQuery,
  useLogInMutation,
  useRegisterMutation,
  useLogOutMutation,
  useRefreshSessionMutation,
  useInvitationQuery,
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
  useReplaceTemporaryPasswordMutation,
} = authApi;
