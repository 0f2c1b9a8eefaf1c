import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type Authenticator, davUserOf, guardRoutes } from '../auth/authenticate.ts';
import { CALENDAR_OBJECT_TYPE, type CalDavReads } from './caldav.service.ts';
import type { CalDavWrites, WritePreconditions } from './caldav.writes.ts';
import { DAV_PREFIX, type DavTarget } from './calendars.ts';
import { DavError } from './dav-errors.ts';
import { davDocument, parseDavBody } from './dav-xml.ts';

/** What clients are told the server speaks: WebDAV classes 1 and 2 and CalDAV (RFC 4791 §5.1). */
const DAV_CLASSES = '1, 2, calendar-access';
const ALLOWED = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT';
const XML_TYPE = 'application/xml; charset=utf-8';
const METHODS = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'PROPFIND', 'PROPPATCH', 'REPORT'] as const;
/** WebDAV is not part of the JSON API's description: its protocol is RFC 4791's, told in docs/behaviour/caldav.md. */
const UNDOCUMENTED = { hide: true };

type Options = { reads: CalDavReads; writes: CalDavWrites; authenticator: Authenticator };

const notFound = () => new DavError(404, 'Not found');

async function targetOf(request: FastifyRequest, reads: CalDavReads): Promise<DavTarget> {
  const target = await reads.resolve(request.url, davUserOf(request));
  if (!target) throw notFound();
  return target;
}

/** The ETags of `If-Match` (`*` for any); null without the header. */
function preconditionsOf(request: FastifyRequest): WritePreconditions {
  const ifMatch = request.headers['if-match'];
  return {
    ifMatch: typeof ifMatch === 'string' ? ifMatch.split(',').map((tag) => tag.trim().replace(/^W\//, '')) : null,
    ifNoneMatch: request.headers['if-none-match']?.trim() === '*',
  };
}

/** Depth 0 or 1; `infinity` (the default) is answered as 1, which reaches every object of a calendar. */
const depthOf = (request: FastifyRequest): 0 | 1 => (String(request.headers.depth ?? '').trim() === '0' ? 0 : 1);

const bodyText = (request: FastifyRequest): string => (typeof request.body === 'string' ? request.body : '');

async function handle(request: FastifyRequest, reply: FastifyReply, { reads, writes }: Options) {
  const userId = davUserOf(request);
  const target = await targetOf(request, reads);
  reply.header('dav', DAV_CLASSES);
  switch (request.method) {
    case 'OPTIONS':
      return reply.header('allow', ALLOWED).code(200).send();
    case 'PROPFIND':
      return reply.code(207).type(XML_TYPE).send(await reads.propfind(userId, target, depthOf(request), parseDavBody(request.body)));
    case 'REPORT':
      return reply.code(207).type(XML_TYPE).send(await reads.report(userId, target, parseDavBody(request.body)));
    case 'PROPPATCH':
      throw new DavError(403, 'The properties of these resources cannot be changed', { namespace: 'DAV:', name: 'cannot-modify-protected-property' });
  }
  if (target.kind !== 'object') throw new DavError(405, `${request.method} is for the tasks of a calendar`);
  const existing = await reads.objectNamed(userId, target.calendar, target.resourceName);
  switch (request.method) {
    case 'GET':
    case 'HEAD':
      if (!existing) throw notFound();
      reply.header('etag', existing.etag).type(CALENDAR_OBJECT_TYPE);
      return request.method === 'HEAD' ? reply.send() : reply.send(existing.text);
    case 'PUT': {
      const type = request.headers['content-type'] ?? '';
      if (!/^text\/calendar\b/i.test(type)) throw new DavError(415, 'A task is sent as text/calendar');
      const { created, etag } = await writes.put(userId, target.calendar, target.resourceName, existing, bodyText(request), preconditionsOf(request));
      // Without an ETag the client reads the task back (RFC 4791 §5.3.4): it is sent only when the
      // task as stored says what the client sent (docs/decisions/0046-caldav-for-tasks.md).
      if (etag !== null) reply.header('etag', etag);
      return reply.code(created ? 201 : 204).send();
    }
    case 'DELETE':
      if (!existing) throw notFound();
      await writes.delete(userId, existing, preconditionsOf(request));
      return reply.code(204).send();
  }
  throw new DavError(405, `${request.method} is not supported here`);
}

/** A failed precondition as `<DAV:error>`; every other error goes on to the application's handler. */
function davErrorReply(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (!(error instanceof DavError) || error.precondition === null) throw error;
  const { namespace, name } = error.precondition;
  const tag = namespace === 'DAV:' ? `d:${name}` : `c:${name}`;
  return reply
    .code(error.statusCode)
    .type(XML_TYPE)
    .send(davDocument('d:error', { [tag]: '', 'd:responsedescription': error.message }));
}

/**
 * WebDAV's methods, known to the router before a route names them; and bodies read as text in
 * `scope`: XML for PROPFIND and REPORT, iCalendar for PUT, each parsed by its handler.
 */
function speakDav(scope: FastifyInstance): void {
  for (const method of ['PROPFIND', 'PROPPATCH', 'REPORT']) {
    if (!scope.supportedMethods.includes(method)) scope.addHttpMethod(method, { hasBody: true });
  }
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
}

/**
 * Where a client given only the server's address finds CalDAV: `/.well-known/caldav` (RFC 6764),
 * and a PROPFIND of the site's root, which clients that skip the well-known path make. Registered
 * beside the API rather than in it, so that the web client still serves `/`.
 */
export const caldavDiscoveryRoutes: FastifyPluginAsync = async (app) => {
  speakDav(app);
  const toDavRoot = (_request: FastifyRequest, reply: FastifyReply) => reply.redirect(`${DAV_PREFIX}/`, 301);
  app.route({ method: [...METHODS], url: '/.well-known/caldav', schema: UNDOCUMENTED, handler: toDavRoot });
  app.route({ method: 'PROPFIND', url: '/', schema: UNDOCUMENTED, handler: toDavRoot });
};

/**
 * CalDAV for tasks (docs/behaviour/caldav.md): discovery from `/.well-known/caldav`, then the
 * principal, its calendar home and its calendars under `/dav/`, for clients signed in with the
 * account's e-mail and an app password. Every path is resolved against the signed-in user: another
 * user's is a 404.
 */
export const caldavRoutes: FastifyPluginAsync<Options> = async (app, options) => {
  speakDav(app);
  await app.register(async (dav) => {
    guardRoutes(dav, options.authenticator.requireDavClient);
    dav.setErrorHandler(davErrorReply);
    for (const url of [DAV_PREFIX, `${DAV_PREFIX}/*`]) {
      dav.route({ method: [...METHODS], url, schema: UNDOCUMENTED, handler: (request, reply) => handle(request, reply, options) });
    }
  });
};
