import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BookIdParams } from '../../../contract/books.ts';
import { EReaderBody, EReader, EReaderParams, EReaders, SendBookBody, SendBookReply, SendOptions } from '../../../contract/e-readers.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import type { EReaderDevicesStore } from './e-reader-devices.store.ts';
import type { SendToDevice } from './send-to-device.ts';

/** The signed-in user's e-reader addresses, and a book sent to one of them by mail; registered behind requireUser. */
export const sendToDeviceRoutes: FastifyPluginAsync<{ devices: EReaderDevicesStore; sendToDevice: SendToDevice }> = async (
  app,
  { devices, sendToDevice },
) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/users/me/e-readers',
    {
      schema: {
        tags: ['users'],
        summary: "The user's e-reader addresses, oldest first",
        response: { 200: EReaders, 401: ErrorReply },
      },
    },
    async (request) => devices.list(request.user.uid),
  );

  routes.post(
    '/api/users/me/e-readers',
    {
      schema: {
        tags: ['users'],
        summary: "Add an e-reader's address (Kindle, PocketBook, any e-mail) with its name and size limit in MB (the kind's default when left out)",
        body: EReaderBody,
        response: { 200: EReader, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => devices.add(request.user.uid, request.body),
  );

  routes.delete(
    '/api/users/me/e-readers/:id',
    {
      schema: {
        tags: ['users'],
        summary: "Remove an e-reader's address (another user's is a 404)",
        params: EReaderParams,
        response: { 204: z.null(), 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      await devices.remove(request.user.uid, request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.get(
    '/api/books/:id/send',
    {
      schema: {
        tags: ['books'],
        summary: "Where the book can be sent: each of the user's e-readers with the book's formats it takes, best first, and whether each fits its limit",
        params: BookIdParams,
        response: { 200: SendOptions, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => sendToDevice.options(request.user.uid, request.params.id),
  );

  routes.post(
    '/api/books/:id/send',
    {
      schema: {
        tags: ['books'],
        summary:
          "Mail one format of the book to one of the user's e-readers, as an attachment; 422 when the file is over the device's limit, 502 when the mail server refuses it (nothing sent either way)",
        params: BookIdParams,
        body: SendBookBody,
        response: { 200: SendBookReply, 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 422: ErrorReply, 502: ErrorReply },
      },
    },
    async (request) => sendToDevice.send(request.user.uid, request.params.id, request.body),
  );
};
