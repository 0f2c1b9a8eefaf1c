import { type EReader, EReaders, type SendArticleBody, SendBookReply } from '../../../../contract/e-readers.ts';
import { api, jsonCall } from '../../api/api.ts';

export const articleSendApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The user's e-readers, for "Send to e-reader" of a kept article (an EPUB, which every kind takes). */
    articleDevices: build.query<EReader[], void>({
      query: () => jsonCall('/api/users/me/e-readers', EReaders),
      providesTags: ['EReaders'],
    }),
    sendArticle: build.mutation<SendBookReply, { bookmarkId: number } & SendArticleBody>({
      query: ({ bookmarkId, ...body }) => jsonCall(`/bookmarks/${bookmarkId}/send`, SendBookReply, { method: 'POST', body }),
    }),
  }),
});

export const { useArticleDevicesQuery, useSendArticleMutation } = articleSendApi;
