import { PassThrough } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CATALOGUE_LOAD_EVENT, CatalogueLoad, CatalogueLoadParams, CurrentCatalogueLoad } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { type Authenticator, guardRoutes } from '../auth/authenticate.ts';
import { notFound } from '../errors.ts';
import { contentReply } from '../http/openapi.ts';
import type { CatalogueLoads } from './catalogue-loads.ts';

/** Proxies close idle connections; a comment line now and then keeps the stream open. */
const HEARTBEAT_MS = 20_000;

type Options = { loads: CatalogueLoads; authenticator: Authenticator };

/**
 * A catalogue load's progress (issue 18), for every signed-in reader: the books page shows a
 * running load to all. Only admins cancel one.
 */
export const catalogueLoadsRoutes: FastifyPluginAsync<Options> = async (app, { loads, authenticator }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  guardRoutes(app, authenticator.requireReader);
  // Open streams would hold a shutdown until the browser leaves; end them first.
  const openStreams = new Set<PassThrough>();
  app.addHook('preClose', async () => {
    for (const stream of openStreams) stream.end();
  });

  routes.get(
    '/api/books/index/current',
    {
      schema: {
        tags: ['books'],
        summary: 'The running catalogue load, else the last one; null when there has been none',
        response: { 200: CurrentCatalogueLoad, 401: ErrorReply },
      },
    },
    async () => ({ load: loads.current() }),
  );

  // Typed without the zod provider: the reply is a stream, not a serialised object.
  app.get(
    '/api/books/index/events',
    {
      schema: {
        tags: ['books'],
        summary: `Server-Sent Events: a "${CATALOGUE_LOAD_EVENT}" event with the current load (if any), then as every load goes`,
        response: { 200: contentReply('text/event-stream', 'The events, until the client leaves'), 401: ErrorReply },
      },
    },
    (request, reply) => {
      const stream = new PassThrough();
      openStreams.add(stream);
      const send = (load: CatalogueLoad) => {
        if (!stream.writableEnded) stream.write(`event: ${CATALOGUE_LOAD_EVENT}\ndata: ${JSON.stringify(load)}\n\n`);
      };
      const stop = loads.watch(send);
      const heartbeat = setInterval(() => stream.writableEnded || stream.write(': ping\n\n'), HEARTBEAT_MS);
      request.raw.on('close', () => {
        clearInterval(heartbeat);
        openStreams.delete(stream);
        stop();
        stream.end();
      });
      stream.write('retry: 2000\n\n');
      const current = loads.current();
      if (current) send(current);
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(stream);
    },
  );

  routes.get(
    '/api/books/index/:id',
    {
      schema: {
        tags: ['books'],
        summary: 'One catalogue load’s progress, while it runs and for a while after',
        params: CatalogueLoadParams,
        response: { 200: CatalogueLoad, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => {
      const load = loads.get(request.params.id);
      if (!load) throw notFound('Catalogue load');
      return load;
    },
  );

  routes.delete(
    '/api/books/index/:id',
    {
      onRequest: authenticator.requireAdmin('cancel a catalogue load'),
      schema: {
        tags: ['books'],
        summary: 'Cancels a running catalogue load: it rolls back, and the catalogue stays as it was; admins only',
        params: CatalogueLoadParams,
        response: { 200: CatalogueLoad, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!loads.get(id)) throw notFound('Catalogue load');
      await loads.cancel(id);
      return loads.get(id)!;
    },
  );
};
