import { ArchiveUsage } from '../../../../contract/bookmark-archives.ts';
import { api, jsonCall } from '../../api/api.ts';

export const keptPagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    keptPagesUsage: build.query<ArchiveUsage, void>({
      query: () => jsonCall('/bookmarks/archives/usage', ArchiveUsage),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useKeptPagesUsageQuery } = keptPagesApi;
