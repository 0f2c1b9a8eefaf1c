import { EReader, type EReaderBody, EReaders } from '../../../../contract/e-readers.ts';
import { api, emptyCall, jsonCall } from '../../api/api.ts';

export const eReadersApi = api.injectEndpoints({
  endpoints: (build) => ({
    eReaders: build.query<EReader[], void>({
      query: () => jsonCall('/api/users/me/e-readers', EReaders),
      providesTags: ['EReaders'],
    }),
    addEReader: build.mutation<EReader, EReaderBody>({
      query: (body) => jsonCall('/api/users/me/e-readers', EReader, { method: 'POST', body }),
      invalidatesTags: ['EReaders'],
    }),
    removeEReader: build.mutation<null, string>({
      query: (id) => emptyCall(`/api/users/me/e-readers/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      invalidatesTags: ['EReaders'],
    }),
  }),
});

export const { useEReadersQuery, useAddEReaderMutation, useRemoveEReaderMutation } = eReadersApi;
