import type { IdentityProviderId } from '../../../../contract/auth.ts';
import { SignInMethods } from '../../../../contract/sign-in-methods.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

export const signInMethodsApi = api.injectEndpoints({
  endpoints: (build) => ({
    signInMethods: build.query<SignInMethods, void>({
      query: () => jsonCall('/api/users/me/identities', SignInMethods),
      providesTags: ['SignInMethods'],
    }),
    /** Leaves the server's link intent for this account in a cookie, for the popup's start to find. */
    askToLink: build.mutation<null, IdentityProviderId>({
      query: (provider) => emptyCall('/api/users/me/identities', { method: 'POST', body: { provider } }),
    }),
    unlinkIdentity: build.mutation<null, string>({
      query: (id) => emptyCall(`/api/users/me/identities/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      invalidatesTags: ['SignInMethods'],
    }),
  }),
});

export const { useSignInMethodsQuery, useAskToLinkMutation, useUnlinkIdentityMutation } = signInMethodsApi;

/** Where the popup goes once the link intent is there. */
export const linkStartPath = (provider: IdentityProviderId) => `/auth/oidc/${provider}/start?intent=link`;
