import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { BookmarkIdParams } from '../../../../contract/bookmarks.ts';
import { SendArticleBody, SendBookReply } from '../../../../contract/e-readers.ts';
import { ErrorReply } from '../../../../contract/errors.ts';
import type { ArticlesToRead } from './articles-to-read.ts';

/** Mails a file made for the user to one of their e-readers, as a book is sent (books/send-to-device.ts). */
export type SendFileToDevice = (
  userId: string,
  deviceId: string,
  file: { title: string; name: string; format: string; content: Uint8Array },
) => Promise<z.infer<typeof SendBookReply>>;

/** "Send to e-reader" for a kept article: its EPUB, mailed; registered behind requireUser, as the books' send is. */
export const articleSendRoutes: FastifyPluginAsync<{ articles: ArticlesToRead; sendFile: SendFileToDevice }> = async (app, { articles, sendFile }) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/bookmarks/:id/send',
    {
      schema: {
        tags: ['bookmarks'],
        summary:
          "Mail the bookmark's kept copy as an EPUB to one of the user's e-readers; 404 when it has none, 400 when the device takes no EPUB, 422 over the device's limit, 502 when the mail server refuses it (nothing sent)",
        params: BookmarkIdParams,
        body: SendArticleBody,
        response: { 200: SendBookReply, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 422: ErrorReply, 502: ErrorReply },
      },
    },
    async (request) => {
      const { title, epub } = await articles.epub(request.user.uid, request.params.id);
      return sendFile(request.user.uid, request.body.device_id, { title, name: `${title}.epub`, format: 'epub', content: epub });
    },
  );
};
