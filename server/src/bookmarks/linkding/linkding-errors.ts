import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.ts';
import { LinkdingFieldError } from './linkding-bookmarks.ts';

/**
 * Refusals as linkding (Django REST framework) gives them, which its clients show: a 400 names
 * each bad field with its messages (`{"url": ["…"]}`), a 401, 403 or 404 is `{"detail": "…"}`.
 * Anything else, a 5xx above all, goes on to the app's own handler (its log and its reply).
 */
export function replyAsLinkding(scope: FastifyInstance): void {
  scope.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof LinkdingFieldError) return reply.status(400).send(error.fields);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const name = issue.instancePath.split('/').filter(Boolean)[0] ?? 'non_field_errors';
        (fields[name] ??= []).push(issue.message ?? 'is not valid');
      }
      return reply.status(400).send(fields);
    }
    if (error instanceof AppError && error.statusCode < 500) {
      reply.headers(error.headers);
      return reply.status(error.statusCode).send({ detail: error.message });
    }
    // Fastify's own refusals of a body (not JSON, too large) say what is wrong in their message.
    if (!(error instanceof AppError) && typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ detail: error.message });
    }
    throw error;
  });
}
