import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Book, BookIdParams, BookQuery, BookResults, BrowseQuery, BrowseReply, CatalogueLoadBusy, IndexMode, IndexUploadReply, SearchPreparing } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { type Authenticator, guardRoutes } from '../auth/authenticate.ts';
import { UPLOAD_ROUTE } from '../http/http-limits.ts';
import { readUpload } from '../http/multipart-upload.ts';
import { contentReply } from '../http/openapi.ts';
import { bookIdsOfReply } from './book-row.ts';
import type { BooksService } from './books.service.ts';
import { bookCoverUrl, type LibraryFiles } from './library/library.files.ts';

/** Aborts when the client goes away before its request's body has all arrived (a cancel, a closed page). */
function whenClientLeaves(request: FastifyRequest): AbortSignal {
  const gone = new AbortController();
  const leave = () => {
    if (!request.raw.complete) gone.abort();
  };
  request.raw.once('aborted', leave);
  request.raw.once('close', leave);
  return gone.signal;
}

/** How far a user has read each of these books that has a position (reading/), for the replies' `progress`. */
export type ProgressOf = (userId: string, bookIds: readonly string[]) => Promise<Map<string, number>>;

type Options = { books: BooksService; files: LibraryFiles; authenticator: Authenticator; maxUploadMb: number; progressOf: ProgressOf };

/** The user whose progress a reply shows: a signed-in user or an API token's owner; none for the books key. */
const readerOf = (request: FastifyRequest): string | null =>
  request.principal?.kind === 'user' || request.principal?.kind === 'api-token' ? request.principal.user.uid : null;

export const booksRoutes: FastifyPluginAsync<Options> = async (app, { books, files, authenticator, maxUploadMb, progressOf }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  guardRoutes(app, authenticator.requireReader);
  await app.register(multipart);

  // Typed without the zod provider: the reply is the JSON bytes the service made as BookResults
  // (a kept reply is sent again as it is); the query is still parsed by zod.
  app.get<{ Querystring: BookQuery }>(
    '/api/books',
    {
      schema: {
        tags: ['books'],
        summary: 'Search the catalogue',
        description: 'Refused with 503 and Retry-After, with how far it is, while the server prepares its first search index',
        querystring: BookQuery,
        response: { 200: BookResults, 400: ErrorReply, 401: ErrorReply, 503: SearchPreparing },
      },
    },
    async (request, reply) => {
      const json = await books.searchReply(request.query);
      const userId = readerOf(request);
      // The reply kept for everyone, with this user's progress added after its books.
      const progress = userId === null ? new Map<string, number>() : await progressOf(userId, bookIdsOfReply(json));
      const sent = progress.size === 0 ? json : `${json.slice(0, -1)},"progress":${JSON.stringify(Object.fromEntries(progress))}}`;
      return reply.type('application/json; charset=utf-8').send(sent);
    },
  );

  // Typed without the zod provider: the reply is a stream, not a serialised object.
  app.get(
    '/api/books/export',
    {
      schema: {
        tags: ['books'],
        summary: 'The whole catalogue as JSON Lines, in the shape the index upload accepts',
        response: { 200: contentReply('application/x-ndjson', 'One book a line'), 401: ErrorReply },
      },
    },
    async (_request, reply) => {
      async function* lines() {
        for await (const book of books.all()) yield `${JSON.stringify(book)}\n`;
      }
      return reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', 'attachment; filename="organiser-books.jsonl"')
        .send(Readable.from(lines()));
    },
  );

  routes.get(
    '/api/books/browse',
    {
      schema: {
        tags: ['books'],
        summary: 'Authors, series, tags, languages, formats or publishers, A–Z, each with its count of books: one letter at a time',
        description: 'Counted by the search index: refused with 503 and Retry-After, as a search is, until the first index is built',
        querystring: BrowseQuery,
        response: { 200: BrowseReply, 400: ErrorReply, 401: ErrorReply, 503: SearchPreparing },
      },
    },
    async (request) => books.browse(request.query.facet, request.query.letter),
  );

  routes.get(
    '/api/books/:id',
    {
      schema: {
        tags: ['books'],
        summary: 'One book, with its comment and the formats on disk in the library folder',
        params: BookIdParams,
        response: { 200: Book, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => {
      const book = await books.get(request.params.id);
      const userId = readerOf(request);
      const [onDisk, cover, progress] = await Promise.all([
        files.filesOf(book),
        files.cover(book),
        userId === null ? null : progressOf(userId, [book.id]),
      ]);
      return {
        ...book,
        files: onDisk,
        cover_url: cover ? bookCoverUrl(book.id, 'full') : null,
        ...(progress === null ? {} : { progress: progress.get(book.id) ?? null }),
      };
    },
  );

  routes.post(
    '/api/books/index',
    {
      onRequest: authenticator.requireAdmin('load the catalogue'),
      config: UPLOAD_ROUTE,
      schema: {
        tags: ['books'],
        summary:
          'Load an index file (multipart: the field name = update | replace, then the field file); admins only. ' +
          'Its progress is at /api/books/index/current and /api/books/index/events; a 409 answers a second load while ' +
          'one runs (with that one’s progress), and a load cancelled meanwhile (the catalogue as it was)',
        consumes: ['multipart/form-data'],
        response: { 200: IndexUploadReply, 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 409: CatalogueLoadBusy, 413: ErrorReply },
      },
    },
    async (request) => {
      const upload = await readUpload(request, {
        what: 'index file',
        fields: { name: IndexMode },
        maxFileMb: maxUploadMb,
        limitName: 'MAX_UPLOAD_MB',
      });
      const length = Number(request.headers['content-length']);
      return books.upload(upload.fields.name, upload.file, {
        totalBytes: Number.isSafeInteger(length) && length > 0 ? length : null,
        requestGone: whenClientLeaves(request),
      });
    },
  );
};
