import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BOOKMARKS_FILE,
  Bookmark,
  BookmarkBulkAction,
  BookmarkBulkReply,
  BookmarkIdParams,
  BookmarkImportReply,
  CurrentBookmarkImport,
  BookmarkInput,
  BookmarkListQuery,
  BookmarkLookup,
  BookmarkLookupQuery,
  BookmarkPage,
  BookmarkPreview,
  BookmarkPreviewBody,
  BookmarkQueryParams,
  BookmarkQuerySpec,
  BookmarkSearchResult,
  BookmarkStateBody,
  BookmarkUpdate,
  TagCounts,
} from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { READ_ROUTE } from '../auth/authenticate.ts';
import { UPLOAD_ROUTE } from '../http/http-limits.ts';
import { fileChunks, readUpload } from '../http/multipart-upload.ts';
import { sendAttachment } from '../http/attachment.ts';
import { contentReply } from '../http/openapi.ts';
import type { BookmarksService } from './bookmarks.service.ts';
import type { LinkPreviews } from './preview/link-previews.ts';

/** A browser's bookmarks file is a few MB even with tens of thousands of links. */
const MAX_IMPORT_MB = 50;

const ListHeaders = z.object({ pagecursor: z.string().max(200, 'must be at most 200 characters').optional() });

/**
 * Every route of the bookmark gateway and the search index (docs/behaviour/bookmarks.md), and the create form's helpers;
 * registered behind requireUserOrApiToken.
 */
export const bookmarksRoutes: FastifyPluginAsync<{ bookmarks: BookmarksService; previews: LinkPreviews }> = async (app, { bookmarks, previews }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['bookmarks'];
  await app.register(multipart);

  routes.get(
    '/bookmarks/',
    {
      schema: {
        tags,
        summary:
          'A page of bookmarks, newest first; send the reply’s cursor as the pageCursor header for the next. `total` counts every bookmark the filters match; `tag` matches in any case; `state` keeps one read-later state (the Unread list)',
        querystring: BookmarkListQuery,
        headers: ListHeaders,
        response: { 200: BookmarkPage, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => bookmarks.list(request.user.uid, request.query, request.headers.pagecursor),
  );

  routes.post(
    '/bookmarks/',
    {
      schema: { tags, summary: 'Create a bookmark', body: BookmarkInput, response: { 200: Bookmark, 400: ErrorReply, 401: ErrorReply, 409: ErrorReply } },
    },
    async (request) => bookmarks.create(request.user.uid, request.body),
  );

  routes.get(
    '/bookmarks/lookup',
    {
      schema: {
        tags,
        summary:
          'Whether the link is saved already: the bookmark of the same link, compared after lower-casing the scheme and host, dropping a default port and writing an empty path as "/"; null when none',
        querystring: BookmarkLookupQuery,
        response: { 200: BookmarkLookup, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => ({ bookmark: await bookmarks.lookup(request.user.uid, request.query.link) }),
  );

  routes.post(
    '/bookmarks/preview',
    {
      schema: {
        tags,
        summary:
          'The page’s title and description (as `note`), fetched by the server: http(s) on public addresses only, at most 3 redirects, 5 s and 1 MB, HTML only; 422 saying why a page cannot be read, 429 past 3 a second',
        body: BookmarkPreviewBody,
        response: { 200: BookmarkPreview, 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 422: ErrorReply, 429: ErrorReply },
      },
    },
    async (request) => previews.preview(request.user.uid, request.body.link),
  );

  routes.post(
    '/bookmarks/import',
    {
      config: UPLOAD_ROUTE,
      schema: {
        tags,
        summary: 'Add the links of a browser’s bookmarks file (multipart field "file", Netscape format) and index them',
        consumes: ['multipart/form-data'],
        response: { 200: BookmarkImportReply, 400: ErrorReply, 401: ErrorReply, 409: ErrorReply, 413: ErrorReply, 503: ErrorReply },
      },
    },
    async (request) => {
      const upload = await readUpload(request, { what: 'bookmarks file', fields: {}, maxFileMb: MAX_IMPORT_MB });
      return bookmarks.import(request.user.uid, (onBytes) => fileChunks(upload.file, onBytes));
    },
  );

  routes.get(
    '/bookmarks/import/progress',
    {
      schema: {
        tags,
        summary: 'The signed-in user’s bookmark import as it goes: bytes received, then entries read, imported, skipped and refused',
        response: { 200: CurrentBookmarkImport, 401: ErrorReply },
      },
    },
    async (request) => ({ import: bookmarks.importProgress(request.user.uid), cut_short: await bookmarks.cutShortImport(request.user.uid) }),
  );

  routes.delete(
    '/bookmarks/import/cut-short/:id',
    {
      schema: {
        tags,
        summary: 'Forget an import that was cut short, keeping the bookmarks it added',
        params: z.object({ id: z.string() }),
        response: { 204: z.null(), 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      await bookmarks.dismissCutShortImport(request.user.uid, request.params.id);
      return reply.code(204).send(null);
    },
  );

  // Typed without the zod provider: the reply is a stream, not a serialised object.
  app.get(
    '/bookmarks/export',
    {
      schema: {
        tags,
        summary: 'Every bookmark as a browser bookmarks file (Netscape format)',
        response: { 200: contentReply('text/html', 'The bookmarks file'), 401: ErrorReply },
      },
    },
    async (request, reply) => sendAttachment(reply, BOOKMARKS_FILE, bookmarks.export(request.user.uid)),
  );

  routes.get(
    '/bookmarks/tags',
    {
      schema: {
        tags,
        summary: 'Every tag with how many bookmarks carry it, most used first (tags compare in any case and keep their first spelling)',
        response: { 200: TagCounts, 401: ErrorReply },
      },
    },
    async (request) => bookmarks.tags(request.user.uid),
  );

  routes.post(
    '/bookmarks/bulk',
    {
      schema: {
        tags,
        summary: 'Delete several bookmarks ({action: "delete", ids}) or add a tag to each ({action: "add_tag", ids, tag}); replies how many changed',
        body: BookmarkBulkAction,
        response: { 200: BookmarkBulkReply, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => bookmarks.bulk(request.user.uid, request.body),
  );

  routes.delete(
    '/bookmarks/:id',
    {
      schema: {
        tags,
        summary: 'Delete the bookmark and its search index entry',
        params: BookmarkIdParams,
        response: { 204: z.null(), 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      await bookmarks.delete(request.user.uid, request.params.id);
      return reply.code(204).send(null);
    },
  );

  routes.get(
    '/bookmarks/:id',
    {
      schema: { tags, summary: 'One bookmark', params: BookmarkIdParams, response: { 200: Bookmark, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply } },
    },
    async (request) => bookmarks.get(request.user.uid, request.params.id),
  );

  routes.put(
    '/bookmarks/:id',
    {
      schema: {
        tags,
        summary: 'Save the whole bookmark (the web client changes one field at a time)',
        params: BookmarkIdParams,
        body: BookmarkUpdate,
        response: { 200: Bookmark, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 409: ErrorReply },
      },
    },
    async (request) => bookmarks.update(request.user.uid, request.params.id, request.body),
  );

  routes.put(
    '/bookmarks/:id/state',
    {
      schema: {
        tags,
        summary: 'Read later: mark the bookmark unread, read or archived (its index entry follows); the update date stays',
        params: BookmarkIdParams,
        body: BookmarkStateBody,
        response: { 200: Bookmark, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => bookmarks.setState(request.user.uid, request.params.id, request.body.state),
  );

  routes.get(
    '/api/bookmarks/:id',
    {
      schema: {
        tags,
        summary: 'The bookmark’s search index entry: 404 when it is not indexed',
        params: BookmarkIdParams,
        response: { 200: Bookmark, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => bookmarks.indexEntry(request.user.uid, request.params.id),
  );

  routes.post(
    '/api/bookmarks/',
    {
      schema: {
        tags,
        summary: 'Create or update the bookmark’s index entry, from the bookmark as stored',
        body: BookmarkUpdate,
        response: { 200: Bookmark, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => bookmarks.indexBookmark(request.user.uid, request.body),
  );

  routes.post(
    '/api/bookmarks/query',
    {
      config: READ_ROUTE,
      schema: {
        tags,
        summary:
          'Search the index: every word (a prefix) in one of the chosen fields of the bookmark, or every word in its kept page\'s text (`text`, with `snippets`); newest first, with the top hosts and tags; `total` (as `total_count`) counts every match',
        querystring: BookmarkQueryParams,
        body: BookmarkQuerySpec,
        response: { 200: BookmarkSearchResult, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => bookmarks.search(request.user.uid, request.body, request.query),
  );
};
