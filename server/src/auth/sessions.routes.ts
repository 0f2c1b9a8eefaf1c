import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorReply } from '../../../contract/errors.ts';
import { EndedSessions, SessionParams, UserSessions } from '../../../contract/sessions.ts';
import type { AuthService } from './auth.service.ts';

/** The signed-in user's own sessions: list them, end one, or end every other ("sign out everywhere"). */
export const sessionsRoutes: FastifyPluginAsync<{ auth: AuthService }> = async (app, { auth }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/users/me/sessions',
    {
      schema: {
        tags: ['users'],
        summary: 'Where the user is signed in: device, address and last use of each session',
        response: { 200: UserSessions, 401: ErrorReply },
      },
    },
    async (request) => auth.sessionsOf(request.user.uid, request.user.sessionId),
  );

  routes.delete(
    '/api/users/me/sessions',
    {
      schema: {
        tags: ['users'],
        summary: 'Sign out everywhere else: ends every session but the one asking, at once',
        response: { 200: EndedSessions, 401: ErrorReply },
      },
    },
    async (request) => ({ ended: await auth.endOtherSessions(request.user.uid, request.user.sessionId) }),
  );

  routes.delete(
    '/api/users/me/sessions/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Ends one session of the user at once (another user\'s session is a 404)',
        params: SessionParams,
        response: { 204: z.null(), 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      await auth.endSession(request.user.uid, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
