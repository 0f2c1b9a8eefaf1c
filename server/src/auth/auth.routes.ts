import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AuthReply,
  InvitationInfo,
  InvitationParams,
  LoginBody,
  PasswordResetAccepted,
  PasswordResetBody,
  PasswordResetConfirmBody,
  Providers,
  RegisterBody,
} from '../../../contract/auth.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { AccountsService } from '../users/accounts.service.ts';
import type { AuthService, SignedIn } from './auth.service.ts';
import { createPasswordResetLimiter, createRegistrationLimiter, type LoginLimiter } from './login-limiter.ts';
import type { PasswordResets } from './password-resets.ts';
import { clearRefreshCookie, REFRESH_COOKIE, setRefreshCookie } from './refresh-cookie.ts';
import { signInRedirectOrigin } from './oidc/redirect-origin.ts';
import { sessionClientOf } from './session-client.ts';

type Options = {
  auth: AuthService;
  accounts: AccountsService;
  /** Null when mail or the server's own address is not set up: then no reset is offered. */
  passwordResets: PasswordResets | null;
  /** Shared with the password change, which asks the current password as sign-in does. */
  logins: LoginLimiter;
  config: Pick<Config, 'sessionDays' | 'google' | 'oidc' | 'publicUrl' | 'host' | 'port'>;
};

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 409: ErrorReply, 429: ErrorReply, 503: ErrorReply };

export const authRoutes: FastifyPluginAsync<Options> = async (app, { auth, accounts, passwordResets, logins, config }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // Counted per server instance, in memory.
  const registrations = createRegistrationLimiter();
  const resetRequests = createPasswordResetLimiter();
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
      passwordReset: passwordResets !== null,
    }),
  );

  routes.get(
    '/auth/invitations/:token',
    {
      schema: {
        tags: ['auth'],
        summary: 'The e-mail an invitation is for, while it is good (not used, not expired)',
        params: InvitationParams,
        response: { 200: InvitationInfo, 400: ErrorReply, 404: ErrorReply },
      },
    },
    async (request) => {
      const email = await accounts.invitedEmail(request.params.token);
      if (email === null) throw new AppError(404, 'This invitation has been used or has expired; ask for a new one');
      return { email };
    },
  );

  routes.post(
    '/auth/register',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create a local account (the first one becomes admin); with an invitation even when sign-up is closed',
        body: RegisterBody,
        response: { 200: AuthReply, ...errors },
      },
      // A flood of sign-ups is refused before each body is parsed, checked and counted: refused
      // after, each refusal cost the event loop that work, and clients sending again at once kept
      // /api/health waiting in the flood's first turns.
      onRequest: async () => auth.assertRoomToRegister(),
    },
    async (request, reply) => {
      // An invitation opens sign-up for its e-mail; it is checked, and used, with the account's insert.
      if (request.body.invitation === undefined) await accounts.assertSignupOpen();
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

  /** A reset is offered only with mail and a known address; otherwise its calls are not there. */
  function resets(): PasswordResets {
    if (!passwordResets) throw new AppError(404, 'Password reset by e-mail is not set up on this server; ask an administrator');
    return passwordResets;
  }

  routes.post(
    '/auth/password-reset',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Mail a link to reset a forgotten password (single use, for an hour); the same answer whether or not the address has an account. Only when SMTP_URL and PUBLIC_URL are set',
        body: PasswordResetBody,
        response: { 202: PasswordResetAccepted, 400: ErrorReply, 404: ErrorReply, 429: ErrorReply },
      },
    },
    async (request, reply) => {
      const service = resets();
      await resetRequests.consume(request.ip, request.body.email);
      await service.request(request.body.email);
      return reply.status(202).send({ message: 'If an account has this address, a link to reset its password is on its way' });
    },
  );

  routes.post(
    '/auth/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        summary:
          "A new password through a reset link's token: the link works once, and every session of the account ends; with endOtherCredentials, every API token, app password and the calendar address too",
        body: PasswordResetConfirmBody,
        response: { 204: z.null(), 400: ErrorReply, 404: ErrorReply, 503: ErrorReply },
      },
    },
    async (request, reply) => {
      const { token, password, endOtherCredentials } = request.body;
      await resets().confirm(token, password, { endOtherCredentials: endOtherCredentials === true });
      return reply.status(204).send(null);
    },
  );
};
