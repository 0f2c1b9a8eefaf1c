import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calendarFeedPath, CalendarStatus, CalendarSubscription } from '../../../contract/calendar.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { requestOrigin } from '../http/request-origin.ts';
import type { CalendarTokens } from './calendar-tokens.ts';

type Options = { calendarTokens: CalendarTokens; publicUrl: string | undefined };

/** The signed-in user's calendar subscription (the feed itself is tasks/calendar.routes.ts); registered behind requireUser. */
export const calendarTokensRoutes: FastifyPluginAsync<Options> = async (app, { calendarTokens, publicUrl }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/users/me/calendar',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Whether the calendar subscription is on; its address is shown only when made',
        response: { 200: CalendarStatus, 401: ErrorReply },
      },
    },
    async (request) => {
      const createdAt = await calendarTokens.createdAt(request.user.uid);
      return { enabled: createdAt !== null, created_at: createdAt === null ? null : new Date(createdAt).toISOString() };
    },
  );

  routes.post(
    '/api/users/me/calendar',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Turn the calendar subscription on with a new private address (text/calendar); the one before stops working',
        response: { 200: CalendarSubscription, 401: ErrorReply },
      },
    },
    async (request) => {
      const token = await calendarTokens.issue(request.user.uid);
      return { url: `${requestOrigin(publicUrl, request)}${calendarFeedPath(token)}` };
    },
  );

  routes.delete(
    '/api/users/me/calendar',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Turn the calendar subscription off: its address answers 404 from now on',
        response: { 204: z.null(), 401: ErrorReply },
      },
    },
    async (request, reply) => {
      await calendarTokens.revoke(request.user.uid);
      return reply.code(204).send(null);
    },
  );
};
