import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { describeIssue } from '../../contract/field-labels.ts';
import { isDatabaseBusy } from './storage/database-busy.ts';

/** The one error the application throws on purpose: a status and a message a user may read. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  /** Fields the reply carries beside the three of every error (a busy load's progress). */
  readonly details: Record<string, unknown>;

  constructor(statusCode: number, message: string, headers: Record<string, string> = {}, details: Record<string, unknown> = {}) {
    super(message);
    this.statusCode = statusCode;
    this.headers = headers;
    this.details = details;
  }
}

export const notFound = (what: string) => new AppError(404, `${what} not found`);

export function tooMany(what: string, msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError(429, `Too many ${what}; try again in ${seconds} seconds`, { 'retry-after': String(seconds) });
}

/** How long a request refused while SQLite's writer is taken is asked to wait before it tries again. */
const BUSY_RETRY_SECONDS = 5;

/** Turns every error into `{statusCode, error, message}`; 5xx details stay in the log. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let statusCode = 500;
    let message = 'Internal Server Error';
    let details: Record<string, unknown> = {};
    if (error instanceof AppError) {
      statusCode = error.statusCode;
      message = error.message;
      details = error.details;
      reply.headers(error.headers);
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      statusCode = 400;
      // Body fields are named bare; query, params and headers say where they came from.
      const where = error.validationContext === 'body' ? '' : (error.validationContext ?? '');
      message = error.validation
        .map((issue) => describeIssue(issue.instancePath.split('/').filter(Boolean), issue.message ?? 'is not valid', where))
        .join('; ');
    } else if (isResponseSerializationError(error)) {
      statusCode = 500;
    } else if (isDatabaseBusy(error)) {
      // SQLite's one writer is taken (a long catalogue load): nothing was written, and a moment
      // later it will be. A refusal to try again, not a failure with a stack.
      statusCode = 503;
      message = 'The database is busy with a catalogue load; try again in a few seconds';
      reply.header('retry-after', String(BUSY_RETRY_SECONDS));
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      statusCode = error.statusCode;
      message = error.message;
    }
    // A refusal the code chose (busy, a provider down) is told by its message; its stack says
    // nothing more, and a flood of them wrote more stacks than a pipe holds to a log that may block.
    if (statusCode >= 500 && (error instanceof AppError || isDatabaseBusy(error))) request.log.warn({ statusCode, message }, 'request refused');
    else if (statusCode >= 500) request.log.error({ err: error, reqId: request.id }, 'request failed');
    return reply.status(statusCode).send({ ...details, statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message });
  });
}

/** The router's own errors, told in words that do not echo the (possibly huge) path back. */
const ROUTER_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL does not decode: each % must start the escape of a UTF-8 character',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is longer than 100 characters',
};

/**
 * Errors the router raises before a route is found: Fastify's own reply to them adds a `code`
 * key and repeats the path, so they get the one shape here.
 */
export function frameworkErrorReply(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const statusCode = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const message = ROUTER_MESSAGES[error.code] ?? 'The request cannot be routed';
  return reply.status(statusCode).send({ statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message });
}
