import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuthReply, LoginBody, Providers, RegisterBody } from '../../../contract/auth.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { AccountsService } from '../users/accounts.service.ts';
import type { AuthService, SignedIn } from './auth.service.ts';
import { createRegistrationLimiter, type LoginLimiter } from './login-limiter.ts';
import { clearRefreshCookie, REFRESH_COOKIE, setRefreshCookie } from './refresh-cookie.ts';
import { signInRedirectOrigin } from './oidc/redirect-origin.ts';
import { sessionClientOf } from './session-client.ts';

type Options = {
  auth: AuthService;
  accounts: AccountsService;
  /** Shared with the password change, which asks the current password as sign-in does. */
  logins: LoginLimiter;
  config: Pick<Config, 'sessionDays' | 'google' | 'oidc' | 'publicUrl' | 'host' | 'port'>;
};

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 409: ErrorReply, 429: ErrorReply, 503: ErrorReply };

export const authRoutes: FastifyPluginAsync<Options> = async (app, { auth, accounts, logins, config }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // Counted per server instance, in memory.
  const registrations = createRegistrationLimiter();
  const providersReachable = signInRedirectOrigin(config) !== null;

  function sendSignedIn(request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn) {
    setRefreshCookie(request, reply, signedIn.refreshToken, config.sessionDays);
    return signedIn.reply;
  }

  routes.get(
    '/auth/providers',
    { schema: { tags: ['auth'], summary: 'Sign-in methods on offer', response: { 200: Providers } } },
    async () => ({
      local: true,
      ...(await accounts.signupState()),
      // Without an address to come back to, a provider's button could only fail.
      google: config.google !== undefined && providersReachable,
      oidc: providersReachable ? (config.oidc?.name ?? null) : null,
    }),
  );

  routes.post(
    '/auth/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create a local account (the first one becomes admin)',
        body: RegisterBody,
        response: { 200: AuthReply, ...errors },
      },
    },
    async (request, reply) => {
      await accounts.assertSignupOpen();
      await registrations.consume(request.ip);
      return sendSignedIn(request, reply, await auth.register(request.body, sessionClientOf(request)));
    },
  );

  routes.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        body: LoginBody,
        response: { 200: AuthReply, ...errors },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      await logins.assertAllowed(request.ip, email);
      try {
        const signedIn = await auth.login(request.body, sessionClientOf(request));
        await logins.recordSuccess(request.ip, email);
        return sendSignedIn(request, reply, signedIn);
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 401) await logins.recordFailure(request.ip, email);
        throw error;
      }
    },
  );

  routes.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'A new bearer token from the refresh cookie (the cookie is rotated)',
        response: { 200: AuthReply, 401: ErrorReply },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      if (!token) throw new AppError(401, 'Not signed in');
      try {
        return sendSignedIn(request, reply, await auth.refresh(token, sessionClientOf(request)));
      } catch (error) {
        clearRefreshCookie(reply);
        throw error;
      }
    },
  );

  routes.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke the session of the refresh cookie',
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const token = request.cookies[REFRESH_COOKIE];
      if (token) await auth.logout(token);
      clearRefreshCookie(reply);
      return reply.status(204).send(null);
    },
  );
};
