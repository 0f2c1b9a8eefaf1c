import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ArchiveSummaries, ArchiveSummariesQuery, ArchiveUsage, BookmarkArchive } from '../../../../contract/bookmark-archives.ts';
import { BookmarkIdParams } from '../../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../../contract/errors.ts';
import { UPLOAD_ROUTE } from '../../http/http-limits.ts';
import { fileChunks, readUpload } from '../../http/multipart-upload.ts';
import { contentReply } from '../../http/openapi.ts';
import type { ArchiveService } from './archive.service.ts';
import { READER_POLICY } from './reader-document.ts';

/** A SingleFile capture holds its images and style sheets inside it: a long article with photos is 5–20 MB. */
export const MAX_CAPTURE_MB = 30;

/** The kept copies of bookmarked pages (docs/behaviour/bookmarks.md, "Kept copies"); registered behind requireUserOrApiToken. */
export const archiveRoutes: FastifyPluginAsync<{ archive: ArchiveService }> = async (app, { archive }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['bookmarks'];
  await app.register(multipart);

  routes.get(
    '/bookmarks/archives',
    {
      schema: {
        tags,
        summary: 'The kept copies of up to 100 of the user’s bookmarks (`ids=1,2,3`), without their text; bookmarks with none are left out',
        querystring: ArchiveSummariesQuery,
        response: { 200: ArchiveSummaries, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => ({ archives: await archive.summaries(request.user.uid, request.query.ids) }),
  );

  routes.get(
    '/bookmarks/archives/usage',
    {
      schema: { tags, summary: 'How many kept copies the user has, the bytes they take and the quota (`ARCHIVE_QUOTA_MB`)', response: { 200: ArchiveUsage, 401: ErrorReply } },
    },
    async (request) => archive.usage(request.user.uid),
  );

  routes.get(
    '/bookmarks/:id/archive',
    {
      schema: {
        tags,
        summary: 'The bookmark’s kept copy without its text: `pending` while fetched, `kept`, or `failed` with the reason; 404 when none was asked for',
        params: BookmarkIdParams,
        response: { 200: BookmarkArchive, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => archive.get(request.user.uid, request.params.id),
  );

  routes.post(
    '/bookmarks/:id/archive',
    {
      schema: {
        tags,
        summary:
          'Keep a copy of the bookmark’s page, or fetch it again (retry): replies 202 `pending` at once and fetches in the background; 413 when the user’s copies fill their quota',
        params: BookmarkIdParams,
        response: { 202: BookmarkArchive, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 413: ErrorReply },
      },
    },
    async (request, reply) => reply.code(202).send(await archive.keep(request.user.uid, request.params.id)),
  );

  routes.post(
    '/bookmarks/:id/archive/upload',
    {
      config: UPLOAD_ROUTE,
      schema: {
        tags,
        summary: `Keep the page the browser has (multipart field "file": one HTML file, such as a SingleFile capture, at most ${MAX_CAPTURE_MB} MB) as the bookmark’s copy, in place of any other; 413 past the size or the quota`,
        params: BookmarkIdParams,
        consumes: ['multipart/form-data'],
        response: { 200: BookmarkArchive, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 413: ErrorReply, 422: ErrorReply },
      },
    },
    async (request) => {
      const upload = await readUpload(request, { what: 'page', fields: {}, maxFileMb: MAX_CAPTURE_MB });
      const page = Buffer.concat(await fileChunks(upload.file));
      return archive.upload(request.user.uid, request.params.id, page);
    },
  );

  // Typed without the zod provider: the reply is an HTML document, not a serialised object.
  app.get<{ Params: { id: number } }>(
    '/bookmarks/:id/archive/reader',
    {
      schema: {
        tags,
        summary:
          'The kept copy as an HTML document for the reader view: sanitised, with a policy that runs no script and loads nothing but images inside it and the app’s style sheet',
        params: BookmarkIdParams,
        response: { 200: contentReply('text/html', 'The kept page'), 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      const { id } = BookmarkIdParams.parse(request.params);
      const page = await archive.reader(request.user.uid, id);
      // In place of the app's policy, set for every reply before the route runs.
      reply.raw.setHeader('content-security-policy', READER_POLICY);
      return reply.header('cache-control', 'private, no-store').type('text/html; charset=utf-8').send(page);
    },
  );
};
