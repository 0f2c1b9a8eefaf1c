import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ChangePasswordBody, DeleteAccountBody } from '../../../contract/account.ts';
import { BOOKMARKS_FILE } from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { EndedSessions } from '../../../contract/sessions.ts';
import { TasksExport } from '../../../contract/tasks.ts';
import { AppError } from '../errors.ts';
import { sendAttachment } from '../http/attachment.ts';
import { contentReply } from '../http/openapi.ts';
import type { AccountsService } from '../users/accounts.service.ts';
import type { AuthService } from './auth.service.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { clearRefreshCookie } from './refresh-cookie.ts';

type Options = {
  auth: AuthService;
  accounts: AccountsService;
  logins: LoginLimiter;
  // The features whose data the account takes away build on auth: described here, handed in by app.ts.
  bookmarks: { export(ownerId: string): AsyncIterable<string> };
  tasks: { exportAll(ownerId: string): Promise<TasksExport> };
};

/** The signed-in user's own account (issue 14): its password, its data to take away, its deletion; registered behind requireUser. */
export const accountRoutes: FastifyPluginAsync<Options> = async (app, { auth, accounts, logins, bookmarks, tasks }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.put(
    '/api/users/me/password',
    {
      // The one call that lets a user with a temporary password choose their own.
      config: { beforePasswordChange: true },
      schema: {
        tags: ['users'],
        summary:
          'Change the password: the current one is asked (left out by an account that has none yet), a wrong one is a 403 counted as a failed sign-in; every other session is signed out, this one stays; with endOtherCredentials, every API token, app password and the calendar address end too. Replies how many sessions were ended',
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

  routes.delete(
    '/api/users/me',
    {
      schema: {
        tags: ['users'],
        summary:
          'Delete my account with my bookmarks, tasks, pending notices, sessions and every credential, once its e-mail is typed again (`email`, in any case); every token stops at once. 409 for the last administrator',
        body: DeleteAccountBody,
        response: { 204: z.null(), 400: ErrorReply, 401: ErrorReply, 409: ErrorReply },
      },
    },
    async (request, reply) => {
      await accounts.deleteOwnAccount(request.user.uid, request.body.email);
      clearRefreshCookie(reply);
      return reply.code(204).send(null);
    },
  );

  // Typed without the zod provider: the reply is a stream, not a serialised object.
  app.get(
    '/api/users/me/export/bookmarks',
    {
      schema: {
        tags: ['users'],
        summary: 'My bookmarks as a browser bookmarks file (Netscape format) to save, with tags and notes; the bookmarks page’s import reads it back',
        response: { 200: contentReply('text/html', 'The bookmarks file'), 401: ErrorReply },
      },
    },
    async (request, reply) => sendAttachment(reply, BOOKMARKS_FILE, bookmarks.export(request.user.uid)),
  );

  routes.get(
    '/api/users/me/export/tasks',
    {
      schema: {
        tags: ['users'],
        summary: 'My tasks as a JSON file to save: every task, done ones too, with its schedule, notice settings and whole completion history',
        response: { 200: TasksExport, 401: ErrorReply },
      },
    },
    async (request, reply) => {
      reply.header('content-disposition', 'attachment; filename="tasks.json"');
      return tasks.exportAll(request.user.uid);
    },
  );
};
