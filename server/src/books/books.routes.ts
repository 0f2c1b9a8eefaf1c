import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Book, BookIdParams, BookQuery, BookResults, IndexMode, IndexUploadReply } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import { AppError } from '../errors.ts';
import type { BooksService } from './books.service.ts';

/**
 * The multipart limit cuts an oversize file short and marks it truncated; this turns the cut
 * into a 413 before a parser can take the short file for a corrupt one.
 */
function failWhenTruncated(file: Readable & { truncated: boolean }, maxUploadMb: number): Readable {
  async function* guarded() {
    for await (const chunk of file) yield chunk as Buffer;
    if (file.truncated) throw new AppError(413, `The index file is larger than MAX_UPLOAD_MB (${maxUploadMb} MB)`);
  }
  return Readable.from(guarded(), { objectMode: false });
}

type Options = { books: BooksService; authenticator: Authenticator; maxUploadMb: number };

export const booksRoutes: FastifyPluginAsync<Options> = async (app, { books, authenticator, maxUploadMb }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const security: Array<Record<string, string[]>> = [{ bearer: [] }, { apiKey: [] }];
  app.addHook('onRequest', authenticator.requireReader);
  await app.register(multipart, {
    limits: { fileSize: maxUploadMb * 1024 * 1024, files: 1, fields: 4, parts: 5 },
  });

  // Typed without the zod provider: the reply is the JSON bytes the service made and checked
  // against BookResults (a kept reply is sent again as it is); the query is still parsed by zod.
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
        summary: 'One book, with its comment',
        security,
        params: BookIdParams,
        response: { 200: Book, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => books.get(request.params.id),
  );

  routes.post(
    '/api/books/index',
    {
      onRequest: authenticator.requireAdmin('load the catalogue'),
      schema: {
        tags: ['books'],
        summary: 'Load an index file (multipart: name = update | replace, then file); admins only',
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        response: { 200: IndexUploadReply, 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 413: ErrorReply },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError(400, 'Send the index file as multipart/form-data');
      let mode: 'update' | 'replace' = 'update';
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.fieldname !== 'name') throw new AppError(400, `Unknown field "${part.fieldname}"`);
          const parsed = IndexMode.safeParse(part.value);
          if (!parsed.success) throw new AppError(400, 'name must be update or replace');
          mode = parsed.data;
        } else {
          if (part.fieldname !== 'file') throw new AppError(400, `Unknown file field "${part.fieldname}"`);
          return books.load(mode, failWhenTruncated(part.file, maxUploadMb));
        }
      }
      throw new AppError(400, 'No index file: send it in the field "file"');
    },
  );
};
