import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  KOREADER_ERRORS,
  KoreaderAuthorized,
  KoreaderDocumentParams,
  KoreaderError,
  KoreaderHealth,
  KoreaderProgressBody,
  KoreaderProgressReply,
  KoreaderProgressSaved,
  KoreaderRegistration,
} from '../../../contract/koreader.ts';
import { type Authenticator, eReaderUserOf } from '../auth/authenticate.ts';
import { AppError } from '../errors.ts';
import type { KoreaderService } from './koreader.service.ts';

/** Where KOReader's custom sync server points: `https://organiser.example/kosync`. */
export const KOSYNC_PREFIX = '/kosync';

type KoreaderErrorName = keyof typeof KOREADER_ERRORS;

/** One of the protocol's errors, thrown as the application's error with the protocol's code beside it. */
const koreaderError = (name: KoreaderErrorName, message: string = KOREADER_ERRORS[name].message) =>
  new AppError(KOREADER_ERRORS[name].status, message, {}, { code: KOREADER_ERRORS[name].code });

/** What the protocol's framework accepts: `application/vnd.koreader.v1+json`, the version being 1. */
const ACCEPT = /^application\/vnd\.koreader\.v(\d+)(.*)\+json$/;

async function checkAccept(request: FastifyRequest): Promise<void> {
  const accept = request.headers.accept;
  if (accept === undefined) throw koreaderError('acceptMissing');
  const version = ACCEPT.exec(accept)?.[1];
  if (version === undefined) throw koreaderError('acceptInvalid');
  if (Number(version) !== 1) throw koreaderError('acceptVersion');
}

/** The protocol's `{code, message}` for any error of its routes: its own codes, or the nearest for ours. */
function koreaderReplyOf(error: FastifyError): { status: number; body: KoreaderError; headers: Record<string, string> } {
  if (error instanceof AppError) {
    const code = error.details.code;
    if (typeof code === 'number') return { status: error.statusCode, body: { code, message: error.message }, headers: error.headers };
    // A refused credential (a disabled account, too many failures) is the protocol's 2001, with our reason.
    if (error.statusCode === 401 || error.statusCode === 429) {
      return { status: error.statusCode, body: { code: KOREADER_ERRORS.unauthorized.code, message: error.message }, headers: error.headers };
    }
    if (error.statusCode < 500) return { status: error.statusCode, body: { code: KOREADER_ERRORS.invalidFields.code, message: error.message }, headers: error.headers };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const aboutDocument = error.validation.some((issue) => issue.instancePath.split('/')[1] === 'document');
    const { code, status, message } = aboutDocument ? KOREADER_ERRORS.documentMissing : KOREADER_ERRORS.invalidFields;
    return { status, body: { code, message }, headers: {} };
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: { code: KOREADER_ERRORS.invalidFields.code, message: error.message }, headers: {} };
  }
  const { code, status, message } = KOREADER_ERRORS.unknown;
  return { status, body: { code, message }, headers: {} };
}

const ERRORS = { 401: KoreaderError, 402: KoreaderError, 403: KoreaderError, 412: KoreaderError, 429: KoreaderError } as const;

/**
 * KOReader's progress sync (the protocol of koreader-sync-server), under /kosync. Its own framework's
 * rules come first: an `Accept` of its vendor type, a body that is a JSON object whatever its
 * `Content-Type`. Then its credentials (an app password's MD5, auth/sync-key-auth.ts), then its fields.
 */
export const kosyncRoutes: FastifyPluginAsync<{ koreader: KoreaderService; authenticator: Authenticator }> = async (
  app,
  { koreader, authenticator },
) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', checkAccept);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body: string, done) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      done(koreaderError('bodyNotJson'));
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) done(koreaderError('bodyNotObject'));
    else done(null, parsed);
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body, headers } = koreaderReplyOf(error);
    if (status >= 500) request.log.error({ err: error, reqId: request.id }, 'request failed');
    return reply.status(status).headers(headers).send(body);
  });

  routes.get(
    `${KOSYNC_PREFIX}/healthcheck`,
    { schema: { tags: ['koreader'], summary: 'KOReader sync: whether the server answers', response: { 200: KoreaderHealth, 412: KoreaderError } } },
    async () => ({ state: 'OK' as const }),
  );

  routes.post(
    `${KOSYNC_PREFIX}/users/create`,
    {
      schema: {
        tags: ['koreader'],
        summary: "KOReader sync: registration, always refused (402, code 2005): sign in with the account's e-mail and an app password",
        body: KoreaderRegistration,
        response: { 402: KoreaderError, 400: KoreaderError, 412: KoreaderError },
      },
    },
    async () => {
      throw koreaderError('registrationDisabled');
    },
  );

  routes.get(
    `${KOSYNC_PREFIX}/users/auth`,
    {
      onRequest: authenticator.requireSyncKey,
      schema: { tags: ['koreader'], summary: 'KOReader sync: whether the e-mail and key are good', response: { 200: KoreaderAuthorized, ...ERRORS } },
    },
    async () => ({ authorized: 'OK' as const }),
  );

  routes.put(
    `${KOSYNC_PREFIX}/syncs/progress`,
    {
      onRequest: authenticator.requireSyncKey,
      schema: {
        tags: ['koreader'],
        summary: "KOReader sync: save the progress of a document; a document that is a file of the library is that book's position too",
        body: KoreaderProgressBody,
        response: { 200: KoreaderProgressSaved, 400: KoreaderError, ...ERRORS },
      },
    },
    async (request) => koreader.put(eReaderUserOf(request), request.body),
  );

  routes.get(
    `${KOSYNC_PREFIX}/syncs/progress/:document`,
    {
      onRequest: authenticator.requireSyncKey,
      schema: {
        tags: ['koreader'],
        summary: "KOReader sync: the newest progress of a document (its own, or its book's when newer); {} when there is none",
        params: KoreaderDocumentParams,
        response: { 200: KoreaderProgressReply, ...ERRORS },
      },
    },
    async (request) => koreader.get(eReaderUserOf(request), request.params.document),
  );
};
