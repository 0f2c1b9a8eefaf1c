import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorReply } from '../../../../contract/errors.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { contentReply } from '../../http/openapi.ts';
import { PROJECT_ROOT } from '../../server-files.ts';
import { setRefreshCookie } from '../refresh-cookie.ts';
import { sessionClientOf } from '../session-client.ts';
import type { IdentityProvider } from './identity-providers.ts';
import { clearLinkCookie, LINK_COOKIE } from './link-cookie.ts';
import type { LinkIntents } from './link-intents.ts';
import type { OidcService } from './oidc.service.ts';
import { signInRedirectOrigin } from './redirect-origin.ts';
import { SIGN_IN_FLOW_SECONDS } from './sign-in-flow.ts';
import { type PopupPurpose, SIGN_IN_RESULT_SCRIPT, signInResultPage } from './sign-in-result-page.ts';

export const FLOW_COOKIE = 'organiser_oidc_flow';
const FLOW_COOKIE_PATH = '/auth/oidc';
// A browser script, read as it is written: it is not built into dist/ with the server.
const resultScript = fs.readFileSync(path.join(PROJECT_ROOT, 'server/src/auth/oidc/sign-in-result.js'), 'utf8');

type Options = {
  oidc: OidcService;
  linkIntents: Pick<LinkIntents, 'open'>;
  config: Pick<Config, 'publicUrl' | 'host' | 'port' | 'sessionDays' | 'google' | 'oidc'>;
};

const ProviderParams = z.strictObject({ provider: z.string() });
const StartQuery = z.object({
  /** Set by the profile's Link button, which has left a link intent in a cookie first (identities.routes.ts). */
  intent: z.literal('link').optional(),
});
const LINK_NOT_ASKED = 'Linking took too long or was not started from your profile in this browser; please try again';

export const oidcRoutes: FastifyPluginAsync<Options> = async (app, { oidc, linkIntents, config }) => {
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

  function sendResultPage(reply: FastifyReply, purpose: PopupPurpose, failure: AppError | null) {
    return (
      reply
        .status(failure?.statusCode ?? 200)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        // The popup arrives here from the provider's origin; a stricter policy would cut it off from its opener.
        .header('cross-origin-opener-policy', 'unsafe-none')
        .send(signInResultPage(purpose, failure?.message ?? null))
    );
  }

  /**
   * Failures inside the popup end on the result page, which reports them to the page that opened
   * it; `run` sets the purpose once it knows it.
   */
  async function inPopup(
    request: FastifyRequest,
    reply: FastifyReply,
    run: (popup: { purpose: PopupPurpose }) => Promise<FastifyReply>,
  ) {
    const popup: { purpose: PopupPurpose } = { purpose: 'sign-in' };
    try {
      return await run(popup);
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) return sendResultPage(reply, popup.purpose, error);
      request.log.warn({ err: error }, `${popup.purpose} with an identity provider failed`);
      const failure = error instanceof AppError ? error : new AppError(500, 'Something went wrong; please try again');
      return sendResultPage(reply, popup.purpose, failure);
    }
  }

  /** The account a link popup is for, from the intent the profile's call left; a 400 when there is none for this provider. */
  async function linkAsked(request: FastifyRequest, reply: FastifyReply, provider: IdentityProvider) {
    const intent = await linkIntents.open(request.cookies[LINK_COOKIE]);
    // An intent is used once, whatever the outcome.
    clearLinkCookie(reply);
    if (!intent || intent.provider !== provider.id) throw new AppError(400, LINK_NOT_ASKED);
    return { userId: intent.userId, sessionId: intent.sessionId };
  }

  routes.get(
    '/auth/oidc/:provider/start',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Opens a sign-in popup: redirects to the identity provider. With `intent=link`, the popup links the provider to the account that asked (`POST /api/users/me/identities`) instead',
        params: ProviderParams,
        querystring: StartQuery,
        response: { 302: z.null(), 404: ErrorReply },
      },
    },
    async (request, reply) => {
      const provider = oidc.provider(request.params.provider);
      return inPopup(request, reply, async (popup) => {
        if (request.query.intent === 'link') popup.purpose = 'link';
        const link = popup.purpose === 'link' ? await linkAsked(request, reply, provider) : undefined;
        const { location, flowToken } = await oidc.start(provider, redirectUri(provider), link);
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
        summary:
          "The identity provider's redirect: signs in and sets the refresh cookie, or links the provider to the account that asked, and tells the opener",
        params: ProviderParams,
        response: { 200: contentReply('text/html', 'The result page, which tells the opener and closes'), 404: ErrorReply },
      },
    },
    async (request, reply) => {
      const provider = oidc.provider(request.params.provider);
      return inPopup(request, reply, async (popup) => {
        const flowToken = request.cookies[FLOW_COOKIE];
        // A flow is used once, whatever its outcome.
        reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
        const flow = await oidc.flowOf(provider, flowToken);
        if (flow.link) popup.purpose = 'link';
        const callbackUrl = new URL(redirectUri(provider));
        callbackUrl.search = new URL(request.url, 'http://callback').search;
        const finished = await oidc.finish(provider, callbackUrl, flow, sessionClientOf(request));
        if (!finished.linked) setRefreshCookie(request, reply, finished.signedIn.refreshToken, config.sessionDays);
        return sendResultPage(reply, popup.purpose, null);
      });
    },
  );

  routes.get(SIGN_IN_RESULT_SCRIPT, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(resultScript),
  );
};
