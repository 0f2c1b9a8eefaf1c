import fs from 'node:fs';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorReply } from '../../../../contract/errors.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { setRefreshCookie } from '../refresh-cookie.ts';
import { sessionClientOf } from '../session-client.ts';
import type { IdentityProvider } from './identity-providers.ts';
import type { OidcService } from './oidc.service.ts';
import { signInRedirectOrigin } from './redirect-origin.ts';
import { SIGN_IN_FLOW_SECONDS } from './sign-in-flow.ts';
import { SIGN_IN_RESULT_SCRIPT, signInResultPage } from './sign-in-result-page.ts';

export const FLOW_COOKIE = 'organiser_oidc_flow';
const FLOW_COOKIE_PATH = '/auth/oidc';
const resultScript = fs.readFileSync(new URL('./sign-in-result.js', import.meta.url), 'utf8');

type Options = { oidc: OidcService; config: Pick<Config, 'publicUrl' | 'host' | 'port' | 'sessionDays' | 'google' | 'oidc'> };

const ProviderParams = z.strictObject({ provider: z.string() });

export const oidcRoutes: FastifyPluginAsync<Options> = async (app, { oidc, config }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const origin = signInRedirectOrigin(config);
  const configured = [config.google && 'Google', config.oidc?.name].filter(Boolean);
  if (!origin && configured.length > 0) {
    app.log.error(
      `Sign-in with ${configured.join(' and ')} is off: set PUBLIC_URL to the address users reach this server at ` +
        '(or HOST to the one address it listens on); the redirect URI is built from it, never from the Host header',
    );
  }

  /** The redirect URI registered at the provider (redirect-origin.ts). */
  function redirectUri(provider: IdentityProvider): string {
    if (!origin) {
      throw new AppError(503, `Sign-in with ${provider.name} is not set up on this server: its PUBLIC_URL is not set`);
    }
    return `${origin}/auth/oidc/${provider.id}/callback`;
  }

  function sendResultPage(reply: FastifyReply, failure: AppError | null) {
    return (
      reply
        .status(failure?.statusCode ?? 200)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        // The popup arrives here from the provider's origin; a stricter policy would cut it off from its opener.
        .header('cross-origin-opener-policy', 'unsafe-none')
        .send(signInResultPage(failure?.message ?? null))
    );
  }

  /** Failures inside the popup end on the result page, which reports them to the login page. */
  async function inPopup(request: FastifyRequest, reply: FastifyReply, run: () => Promise<FastifyReply>) {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) return sendResultPage(reply, error);
      request.log.warn({ err: error }, 'sign-in with an identity provider failed');
      const failure = error instanceof AppError ? error : new AppError(500, 'Something went wrong; please try again');
      return sendResultPage(reply, failure);
    }
  }

  routes.get(
    '/auth/oidc/:provider/start',
    {
      schema: {
        tags: ['auth'],
        summary: 'Opens a sign-in popup: redirects to the identity provider',
        params: ProviderParams,
        response: { 302: z.null(), 404: ErrorReply },
      },
    },
    async (request, reply) => {
      const provider = oidc.provider(request.params.provider);
      return inPopup(request, reply, async () => {
        const { location, flowToken } = await oidc.start(provider, redirectUri(provider));
        reply.setCookie(FLOW_COOKIE, flowToken, {
          path: FLOW_COOKIE_PATH,
          httpOnly: true,
          // Lax, not Strict: the cookie must come back with the provider's cross-site redirect to the callback.
          sameSite: 'lax',
          secure: request.protocol === 'https',
          maxAge: SIGN_IN_FLOW_SECONDS,
        });
        return reply.header('cache-control', 'no-store').redirect(location, 302);
      });
    },
  );

  routes.get(
    '/auth/oidc/:provider/callback',
    {
      schema: {
        tags: ['auth'],
        summary: "The identity provider's redirect: signs in, sets the refresh cookie, and tells the opener",
        params: ProviderParams,
        response: { 404: ErrorReply },
      },
    },
    async (request, reply) => {
      const provider = oidc.provider(request.params.provider);
      return inPopup(request, reply, async () => {
        const flowToken = request.cookies[FLOW_COOKIE];
        // A flow is used once, whatever its outcome.
        reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
        const callbackUrl = new URL(redirectUri(provider));
        callbackUrl.search = new URL(request.url, 'http://callback').search;
        const signedIn = await oidc.finish(provider, callbackUrl, flowToken, sessionClientOf(request));
        setRefreshCookie(request, reply, signedIn.refreshToken, config.sessionDays);
        return sendResultPage(reply, null);
      });
    },
  );

  routes.get(SIGN_IN_RESULT_SCRIPT, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(resultScript),
  );
};
