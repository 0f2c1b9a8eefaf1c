import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorReply } from '../../../../contract/errors.ts';
import { IdentityParams, LinkIdentityBody, SignInMethods } from '../../../../contract/sign-in-methods.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import type { IdentitiesService } from './identities.service.ts';
import { setLinkCookie } from './link-cookie.ts';
import type { LinkIntents } from './link-intents.ts';
import type { OidcService } from './oidc.service.ts';
import { signInRedirectOrigin } from './redirect-origin.ts';

type Options = {
  identities: IdentitiesService;
  oidc: Pick<OidcService, 'provider'>;
  linkIntents: Pick<LinkIntents, 'seal'>;
  config: Pick<Config, 'publicUrl' | 'host' | 'port'>;
};

/** The signed-in user's ways in: the password and the linked providers (issue 14); registered behind requireUser. */
export const identitiesRoutes: FastifyPluginAsync<Options> = async (app, { identities, oidc, linkIntents, config }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const providersReachable = signInRedirectOrigin(config) !== null;

  routes.get(
    '/api/users/me/identities',
    {
      schema: {
        tags: ['users'],
        summary:
          'My sign-in methods: whether the account has a password, the providers linked to it (each says whether it may be unlinked) and the providers on offer to link',
        response: { 200: SignInMethods, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => identities.methods(request.user.uid),
  );

  routes.post(
    '/api/users/me/identities',
    {
      schema: {
        tags: ['users'],
        summary:
          'Start linking a provider: leaves a short-lived link intent for this account in an HttpOnly cookie; the page then opens `GET /auth/oidc/{provider}/start?intent=link` in its popup. 404 for a provider not configured',
        body: LinkIdentityBody,
        response: { 204: z.null(), 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 503: ErrorReply },
      },
    },
    async (request, reply) => {
      const provider = oidc.provider(request.body.provider);
      if (!providersReachable) {
        throw new AppError(503, `Sign-in with ${provider.name} is not set up on this server: its PUBLIC_URL is not set`);
      }
      const { uid, sessionId } = request.user;
      setLinkCookie(request, reply, await linkIntents.seal({ userId: uid, sessionId, provider: provider.id }));
      return reply.code(204).send(null);
    },
  );

  routes.delete(
    '/api/users/me/identities/:id',
    {
      schema: {
        tags: ['users'],
        summary:
          'Unlink a provider: it no longer signs in to this account. 409 when it is the last way in (no password, no other configured provider); another user’s is a 404',
        params: IdentityParams,
        response: { 204: z.null(), 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply },
      },
    },
    async (request, reply) => {
      await identities.unlink(request.user.uid, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
