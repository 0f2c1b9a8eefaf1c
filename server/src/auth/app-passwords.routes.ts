import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppPasswordBody, AppPasswordParams, AppPasswords, NewAppPassword } from '../../../contract/app-passwords.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import type { AppPasswords as AppPasswordsStore } from './app-passwords.ts';

/** The signed-in user's app passwords, for e-readers that sign in to /opds with HTTP Basic; registered behind requireUser. */
export const appPasswordsRoutes: FastifyPluginAsync<{ appPasswords: AppPasswordsStore }> = async (app, { appPasswords }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/users/me/app-passwords',
    {
      schema: {
        tags: ['users'],
        summary: 'The user\'s app passwords: name, when made and last used (never the password)',
        response: { 200: AppPasswords, 401: ErrorReply },
      },
    },
    async (request) => appPasswords.list(request.user.uid),
  );

  routes.post(
    '/api/users/me/app-passwords',
    {
      schema: {
        tags: ['users'],
        summary: 'A new named app password for an e-reader (HTTP Basic: e-mail and this password); shown this once',
        body: AppPasswordBody,
        response: { 200: NewAppPassword, 400: ErrorReply, 401: ErrorReply },
      },
    },
    async (request) => appPasswords.create(request.user.uid, request.body.name),
  );

  routes.delete(
    '/api/users/me/app-passwords/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Revoke an app password: it is refused from the next request on (another user\'s is a 404)',
        params: AppPasswordParams,
        response: { 204: z.null(), 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      await appPasswords.revoke(request.user.uid, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
