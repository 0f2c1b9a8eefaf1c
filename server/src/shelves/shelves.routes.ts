import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorReply } from '../../../contract/errors.ts';
import {
  HouseholdMembers,
  Shelf,
  ShelfBody,
  ShelfBookParams,
  ShelfBooks,
  ShelfBooksQuery,
  ShelfMembersBody,
  ShelfParams,
  Shelves,
  ShelvesQuery,
} from '../../../contract/shelves.ts';
import type { ShelvesService } from './shelves.service.ts';

const tags = ['shelves'];

/** The signed-in user's shelves and those shared with them (docs/behaviour/books.md); registered behind requireUser. */
export const shelvesRoutes: FastifyPluginAsync<{ shelves: ShelvesService }> = async (app, { shelves }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/shelves',
    {
      schema: {
        tags,
        summary: 'Your shelves ("Want to read", "Reading", "Read", then those you named) and those shared with you; with ?book=, whether each holds that book',
        querystring: ShelvesQuery,
        response: { 200: Shelves, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => shelves.list(request.user.uid, request.query.book ?? null),
  );

  routes.get(
    '/api/shelves/household',
    {
      schema: {
        tags,
        summary: 'The other accounts of the household, whom a shelf may be shared with',
        response: { 200: HouseholdMembers, 401: ErrorReply },
      },
    },
    async (request) => shelves.household(request.user.uid),
  );

  routes.post(
    '/api/shelves',
    {
      schema: {
        tags,
        summary: 'Make a shelf; its name must be new among yours, in any case (409)',
        body: ShelfBody,
        response: { 201: Shelf, 400: ErrorReply, 401: ErrorReply, 409: ErrorReply },
      },
    },
    async (request, reply) => reply.status(201).send(await shelves.create(request.user.uid, request.body.name)),
  );

  routes.get(
    '/api/shelves/:id',
    {
      schema: { tags, summary: 'One of your shelves or one shared with you', params: ShelfParams, response: { 200: Shelf, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply } },
    },
    async (request) => shelves.get(request.user.uid, request.params.id),
  );

  routes.patch(
    '/api/shelves/:id',
    {
      schema: {
        tags,
        summary: "Rename a shelf you made (the built-in ones keep their names: 400; another's: 403 when shared with you, else 404)",
        params: ShelfParams,
        body: ShelfBody,
        response: { 200: Shelf, 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply },
      },
    },
    async (request) => shelves.rename(request.user.uid, request.params.id, request.body.name),
  );

  routes.delete(
    '/api/shelves/:id',
    {
      schema: {
        tags,
        summary: 'Delete a shelf you made, with its list of books (the books stay in the catalogue)',
        params: ShelfParams,
        response: { 204: z.null(), 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      await shelves.remove(request.user.uid, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.put(
    '/api/shelves/:id/members',
    {
      schema: {
        tags,
        summary: 'Share a shelf you made with members of the household, each to see it or to see and add to it; the list replaces the last',
        params: ShelfParams,
        body: ShelfMembersBody,
        response: { 200: Shelf, 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => shelves.share(request.user.uid, request.params.id, request.body),
  );

  routes.get(
    '/api/shelves/:id/books',
    {
      schema: {
        tags,
        summary: "A page of a shelf's books, last added first",
        params: ShelfParams,
        querystring: ShelfBooksQuery,
        response: { 200: ShelfBooks, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => shelves.books(request.user.uid, request.params.id, request.query.from, request.query.size),
  );

  routes.put(
    '/api/shelves/:id/books/:bookId',
    {
      schema: {
        tags,
        summary: 'Put a book on a shelf; on "Want to read", "Reading" or "Read" it leaves the other two',
        params: ShelfBookParams,
        response: { 200: Shelf, 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => shelves.addBook(request.user.uid, request.params.id, request.params.bookId),
  );

  routes.delete(
    '/api/shelves/:id/books/:bookId',
    {
      schema: {
        tags,
        summary: 'Take a book off a shelf',
        params: ShelfBookParams,
        response: { 200: Shelf, 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => shelves.removeBook(request.user.uid, request.params.id, request.params.bookId),
  );
};
