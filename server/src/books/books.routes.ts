import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Book, BookIdParams, BookQuery, BookResults, CatalogueLoadBusy, IndexMode, IndexUploadReply } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import { UPLOAD_ROUTE } from '../http/http-limits.ts';
import { readUpload } from '../http/multipart-upload.ts';
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

type Options = { books: BooksService; files: LibraryFiles; authenticator: Authenticator; maxUploadMb: number };

export const booksRoutes: FastifyPluginAsync<Options> = async (app, { books, files, authenticator, maxUploadMb }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const security: Array<Record<string, string[]>> = [{ bearer: [] }, { apiKey: [] }];
  app.addHook('onRequest', authenticator.requireReader);
  await app.register(multipart);

  // Typed without the zod provider: the reply is the JSON bytes the service made as BookResults
  // (a kept reply is sent again as it is); the query is still parsed by zod.
  app.get<{ Querystring: BookQuery }>(
    '/api/books',
    {
      schema: {
        tags: ['books'],
        summary: 'Search the catalogue',
        security,
        querystring: BookQuery,
        response: { 200: BookResults, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request, reply) => reply.type('application/json; charset=utf-8').send(await books.searchReply(request.query)),
  );

  // Typed without the zod provider: the reply is a stream, not a serialised object.
  app.get(
    '/api/books/export',
    {
      schema: {
        tags: ['books'],
        summary: 'The whole catalogue as JSON Lines, in the shape the index upload accepts',
        security,
        response: { 401: ErrorReply },
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
    '/api/books/:id',
    {
      schema: {
        tags: ['books'],
        summary: 'One book, with its comment and the formats on disk in the library folder',
        security,
        params: BookIdParams,
        response: { 200: Book, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => {
      const book = await books.get(request.params.id);
      const [onDisk, cover] = await Promise.all([files.filesOf(book), files.cover(book)]);
      return { ...book, files: onDisk, cover_url: cover ? bookCoverUrl(book.id, 'full') : null };
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
        security: [{ bearer: [] }],
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
