import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BookIdParams } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { ContinueReading, ContinueReadingQuery, ReadingPosition, ReadingPositionBody, ReadingPositionReply } from '../../../contract/reading.ts';
import type { ReadingService } from './reading.service.ts';

/** The signed-in user's reading positions (issue 38); registered behind requireUser. */
export const readingRoutes: FastifyPluginAsync<{ reading: ReadingService }> = async (app, { reading }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/books/continue',
    {
      schema: {
        tags: ['reading'],
        summary: 'Continue reading: the books the user has a position in, the newest position first',
        querystring: ContinueReadingQuery,
        response: { 200: ContinueReading, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => reading.continueReading(request.user.uid, request.query.limit),
  );

  routes.get(
    '/api/books/:id/position',
    {
      schema: {
        tags: ['reading'],
        summary: "Where the user is in the book (the web reader's or KOReader's save, the newest); null before any",
        params: BookIdParams,
        response: { 200: ReadingPositionReply, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => reading.get(request.user.uid, request.params.id),
  );

  routes.put(
    '/api/books/:id/position',
    {
      schema: {
        tags: ['reading'],
        summary: 'Save where the user is in the book; a save older than the kept position changes nothing. Answers the position kept',
        params: BookIdParams,
        body: ReadingPositionBody,
        response: { 200: ReadingPosition, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => reading.put(request.user.uid, request.params.id, request.body),
  );
};
