import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ChangePasswordBody } from '../../../contract/account.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { EndedSessions } from '../../../contract/sessions.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { LoginLimiter } from '../auth/login-limiter.ts';
import { AppError } from '../errors.ts';

type Options = { auth: AuthService; logins: LoginLimiter };

/** The signed-in user's own account (issue 14): its password; registered behind requireUser. */
export const accountRoutes: FastifyPluginAsync<Options> = async (app, { auth, logins }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const security = [{ bearer: [] }];

  routes.put(
    '/api/users/me/password',
    {
      // The one call that lets a user with a temporary password choose their own.
      config: { beforePasswordChange: true },
      schema: {
        tags: ['users'],
        summary:
          'Change the password: the current one is asked (left out by an account that has none yet), a wrong one is a 403 counted as a failed sign-in; every other session is signed out, this one stays. Replies how many were ended',
        security,
        body: ChangePasswordBody,
        response: { 200: EndedSessions, 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 429: ErrorReply, 503: ErrorReply },
      },
    },
    async (request) => {
      // Guessing the current password with a borrowed token is held back as guessing it at sign-in is, with the same counts.
      const { uid, email, sessionId } = request.user;
      await logins.assertAllowed(request.ip, email);
      try {
        return { ended: await auth.changePassword(uid, sessionId, request.body) };
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 403) await logins.recordFailure(request.ip, email);
        throw error;
      }
    },
  );
};
