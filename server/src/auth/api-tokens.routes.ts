import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiTokenParams, ApiTokens, CreateApiTokenBody, CreatedApiToken } from '../../../contract/api-tokens.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import type { ApiTokensService } from './api-tokens.service.ts';

/**
 * The signed-in user's personal API tokens. Registered behind `requireUser`: a session only, so
 * that a token that leaks from a script cannot mint more tokens or keep itself alive.
 */
export const apiTokensRoutes: FastifyPluginAsync<{ apiTokens: ApiTokensService }> = async (app, { apiTokens }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  routes.post(
    '/api/users/me/tokens',
    {
      schema: {
        tags,
        summary:
          'Create a personal API token for scripts and browser extensions (scope "read": GET calls and searches; "write": every bookmark and task call); the reply holds the token, shown this once',
        body: CreateApiTokenBody,
        response: { 200: CreatedApiToken, 400: ErrorReply, 401: ErrorReply, 409: ErrorReply },
      },
    },
    async (request) => apiTokens.create(request.user.uid, request.body),
  );

  routes.get(
    '/api/users/me/tokens',
    {
      schema: {
        tags,
        summary: 'The user’s API tokens (never the tokens themselves): name, scope, created and last used, to the minute',
        response: { 200: ApiTokens, 401: ErrorReply },
      },
    },
    async (request) => apiTokens.list(request.user.uid),
  );

  routes.delete(
    '/api/users/me/tokens/:id',
    {
      schema: {
        tags,
        summary: 'Revoke a token: it is refused from the next request on (another user’s token is a 404)',
        params: ApiTokenParams,
        response: { 204: z.null(), 400: ErrorReply, 401: ErrorReply, 404: ErrorReply },
      },
    },
    async (request, reply) => {
      await apiTokens.revoke(request.user.uid, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
