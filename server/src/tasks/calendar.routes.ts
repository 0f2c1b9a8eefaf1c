import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import fresh from 'fresh';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorReply } from '../../../contract/errors.ts';
import { calendarOwnerOf } from '../auth/authenticate.ts';
import type { RequestCheck } from '../http/request-check.ts';
import type { CalendarTokens } from '../auth/calendar-tokens.ts';
import { requestOrigin } from '../http/request-origin.ts';
import type { TasksService } from './tasks.service.ts';

type Options = {
  tasks: TasksService;
  calendarTokens: Pick<CalendarTokens, 'feedServed'>;
  requireCalendarToken: RequestCheck;
  publicUrl: string | undefined;
};

const FeedParams = z.object({ token: z.string() });

/**
 * Only the request's conditions. `fresh` also answers "stale" to any `Cache-Control: no-cache`,
 * which the Fetch standard adds to every conditional request (so undici and browsers send it);
 * an origin answers 304 all the same (RFC 9110 §13.2.2): the directive is for caches between.
 */
const conditionsOf = (headers: IncomingHttpHeaders) => ({
  'if-none-match': headers['if-none-match'],
  'if-modified-since': headers['if-modified-since'],
});

/** A strong validator of the feed's bytes. */
const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url')}"`;

/**
 * The private calendar feed (RFC 5545) that calendar apps subscribe to: its token is its only
 * credential, so it sits outside the signed-in routes. Clients poll it; an unchanged feed answers
 * 304 to `If-None-Match` or `If-Modified-Since`.
 */
export const calendarFeedRoutes: FastifyPluginAsync<Options> = async (app, { tasks, calendarTokens, requireCalendarToken, publicUrl }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/calendar/:token.ics',
    {
      onRequest: requireCalendarToken,
      schema: {
        tags: ['calendar'],
        summary:
          'The owner\'s tasks as text/calendar: one event per occurrence from 30 days back to 12 months ahead, with ETag and Last-Modified; an unknown or revoked token is a 404',
        params: FeedParams,
        response: {
          200: z.string().describe('An iCalendar (RFC 5545) document, sent as text/calendar'),
          304: z.null().describe('Not modified since the ETag or date sent'),
          404: ErrorReply,
        },
      },
    },
    async (request, reply) => {
      const ownerId = calendarOwnerOf(request);
      const origin = requestOrigin(publicUrl, request);
      const body = await tasks.calendar(ownerId, (id) => `${origin}/task/${encodeURIComponent(id)}`);
      const etag = etagOf(body);
      const lastModified = new Date(await calendarTokens.feedServed(ownerId, etag)).toUTCString();
      reply.header('etag', etag).header('last-modified', lastModified).header('cache-control', 'private, no-cache');
      if (fresh(conditionsOf(request.headers), { etag, 'last-modified': lastModified })) return reply.code(304).send(null);
      return reply.type('text/calendar; charset=utf-8').send(body);
    },
  );
};
