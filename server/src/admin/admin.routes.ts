import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminUser,
  AdminUserParams,
  AdminUsers,
  Invitation,
  InvitationBody,
  InvitationParams,
  PendingInvitations,
  UpdateUserBody,
} from '../../../contract/admin.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { guardRoutes } from '../auth/authenticate.ts';
import type { RequestCheck } from '../http/request-check.ts';
import { requestOrigin } from '../http/request-origin.ts';
import type { AdminService } from './admin.service.ts';

type Options = { admin: AdminService; requireAdmin: RequestCheck; publicUrl: string | undefined };

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply };

/** The administration page's calls (issue 14), for administrators only. */
export const adminRoutes: FastifyPluginAsync<Options> = async (app, { admin, requireAdmin, publicUrl }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  guardRoutes(app, requireAdmin);

  routes.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every account: name, e-mail, administrator, how it signs in, created, last seen, its bookmarks and tasks',
        response: { 200: AdminUsers, 401: ErrorReply, 403: ErrorReply },
      },
    },
    () => admin.listUsers(),
  );

  routes.post(
    '/api/admin/invitations',
    {
      schema: {
        tags: ['admin'],
        summary: 'A sign-up link for one e-mail, single use, for 7 days, even with ALLOW_SIGNUP=false; mailed when SMTP_URL is set',
        body: InvitationBody,
        response: { 200: Invitation, ...errors },
      },
    },
    (request) => admin.invite(request.user.uid, request.body.email, requestOrigin(publicUrl, request)),
  );

  routes.get(
    '/api/admin/invitations',
    {
      schema: {
        tags: ['admin'],
        summary: 'The invitations not yet used nor expired, newest first: for whom, by whom, sent when, until when',
        response: { 200: PendingInvitations, 401: ErrorReply, 403: ErrorReply },
      },
    },
    () => admin.pendingInvitations(),
  );

  routes.delete(
    '/api/admin/invitations/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Take back an invitation not yet used: its link then answers as an unknown one; a used or expired one is a 404',
        params: InvitationParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await admin.revokeInvitation(request.params.id);
      return reply.status(204).send(null);
    },
  );

  routes.put(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Make or unmake administrator (never the last), disable or enable (a disabled account is refused at once everywhere), or set a temporary password to be changed at next sign-in',
        params: AdminUserParams,
        body: UpdateUserBody,
        response: { 200: AdminUser, ...errors, 503: ErrorReply },
      },
    },
    (request) => admin.update(request.user.uid, request.params.id, request.body),
  );

  routes.delete(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete an account and all its data; its every credential stops at once',
        params: AdminUserParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await admin.remove(request.user.uid, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
