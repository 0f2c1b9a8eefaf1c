import { type SendBookBody, SendBookReply, SendOptions } from '../../../../contract/e-readers.ts';
import { api, jsonCall } from '../../api/api.ts';

const sendPath = (bookId: string) => `/api/books/${encodeURIComponent(bookId)}/send`;

export const sendToDeviceApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The user's e-readers, each with the book's formats it takes, best first. */
    sendOptions: build.query<SendOptions, string>({
      query: (bookId) => jsonCall(sendPath(bookId), SendOptions),
      providesTags: ['EReaders'],
    }),
    sendBook: build.mutation<SendBookReply, { bookId: string } & SendBookBody>({
      query: ({ bookId, ...body }) => jsonCall(sendPath(bookId), SendBookReply, { method: 'POST', body }),
    }),
  }),
});

export const { useSendOptionsQuery, useSendBookMutation } = sendToDeviceApi;
