import { type ApiToken, ApiTokens, type CreateApiTokenBody, CreatedApiToken } from '../../../../contract/api-tokens.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

export const apiTokensApi = api.injectEndpoints({
  endpoints: (build) => ({
    apiTokens: build.query<ApiToken[], void>({
      query: () => jsonCall('/api/users/me/tokens', ApiTokens),
      providesTags: ['ApiTokens'],
    }),
    createApiToken: build.mutation<CreatedApiToken, CreateApiTokenBody>({
      query: (body) => jsonCall('/api/users/me/tokens', CreatedApiToken, { method: 'POST', body }),
      invalidatesTags: ['ApiTokens'],
    }),
    revokeApiToken: build.mutation<null, string>({
      query: (id) => emptyCall(`/api/users/me/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      invalidatesTags: ['ApiTokens'],
    }),
  }),
});

export const { useApiTokensQuery, useCreateApiTokenMutation, useRevokeApiTokenMutation } = apiTokensApi;
