import { PassThrough } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorReply } from '../../../contract/errors.ts';
import { UpdateMeBody, USER_EVENT, UserRecord } from '../../../contract/users.ts';
import { contentReply } from '../http/openapi.ts';
import type { UsersService } from './users.service.ts';

/** Proxies close idle connections; a comment line now and then keeps the stream open. */
const HEARTBEAT_MS = 20_000;

export const usersRoutes: FastifyPluginAsync<{ users: UsersService }> = async (app, { users }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // Open streams would hold a shutdown until the browser leaves; end them first.
  const openStreams = new Set<PassThrough>();
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.end();
  });

  routes.get(
    '/api/users/me',
    {
      config: { beforePasswordChange: true },
      schema: {
        tags: ['users'],
        summary: 'The signed-in user record',
        response: { 200: UserRecord, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => users.record(request.user.uid),
  );

  routes.put(
    '/api/users/me',
    {
      schema: {
        tags: ['users'],
        summary:
          'Change the timezone, the name or the e-mail (any of them, at least one). A new e-mail is lower-cased and must be free (409); one of ADMIN_EMAILS is refused to an account that does not administer (403). The bearer token names the old ones until the next refresh',
        body: UpdateMeBody,
        response: { 200: UserRecord, 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply },
      },
    },
    async (request) => users.update(request.user.uid, request.body),
  );

  // Typed without the zod provider: the reply is a stream, not a serialised object.
  app.get(
    '/api/users/me/events',
    {
      config: { beforePasswordChange: true },
      schema: {
        tags: ['users'],
        summary: `Server-Sent Events: a "${USER_EVENT}" event with the record now and on every change`,
        response: { 200: contentReply('text/event-stream', 'The events, until the client leaves'), 401: ErrorReply },
      },
    },
    (request, reply) => {
      const stream = new PassThrough();
      openStreams.add(stream);
      const write = (chunk: string) => {
        if (!stream.writableEnded) stream.write(chunk);
      };
      const stop = users.watch(
        request.user.uid,
        (record) => write(`event: ${USER_EVENT}\ndata: ${JSON.stringify(record)}\n\n`),
        (error) => {
          request.log.error({ err: error }, 'user events stream failed');
          stream.end();
        },
        // A disabled or deleted account's page is signed out when its stream reconnects and is refused.
        () => stream.end(),
      );
      const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);
      request.raw.on('close', () => {
        clearInterval(heartbeat);
        openStreams.delete(stream);
        stop();
        stream.end();
      });
      write('retry: 2000\n\n');
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(stream);
    },
  );
};
