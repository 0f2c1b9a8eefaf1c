import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, notFound } from '../errors.ts';
import { type BasicAuth, basicSignInRequired } from './basic-auth.ts';
import type { CalendarTokens } from './calendar-tokens.ts';
import type { SessionRevocations } from './session-revocations.ts';
import type { AccessTokens, TokenUser } from './tokens.ts';

/**
 * Who a request has shown itself to be: a signed-in user, a holder of the shared books key, a
 * holder of a user's calendar token, which opens that user's calendar feed and nothing else, or an
 * e-reader signed in with HTTP Basic, which opens the catalogue (OPDS, covers, files) and nothing else.
 */
export type Principal =
  | { kind: 'user'; user: TokenUser }
  | { kind: 'books-api-key' }
  | { kind: 'calendar-feed'; userId: string }
  | { kind: 'e-reader'; userId: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the checks below; null on public routes and before a check has run. */
    principal: Principal | null;
    /** The signed-in user, on routes behind `requireUser` or `requireAdmin`; elsewhere reading it fails with a 401. */
    readonly user: TokenUser;
  }
}

/**
 * One way for a request to show who it is: null when the request does not carry it, a 401 when
 * it carries it and it is not good. App passwords and API tokens will each be one more.
 */
type Credential = (request: FastifyRequest) => Promise<Principal | null>;

/** An onRequest hook: it runs before the body is read, so a caller who may not ask is refused before anything is parsed. */
export type RequestCheck = (request: FastifyRequest) => Promise<void>;

export type Authenticator = {
  /** A signed-in user (a bearer token). */
  requireUser: RequestCheck;
  /** A reader of the catalogue: a signed-in user, or a caller with the shared `X-API-Key` (DESIGN §4 Catalogue). */
  requireReader: RequestCheck;
  /** A signed-in administrator; `action` completes "Only administrators may …". */
  requireAdmin(action: string): RequestCheck;
  /** A calendar token in the path (`:token`); an unknown or revoked one is a 404, as for a page that is not there. */
  requireCalendarToken: RequestCheck;
  /**
   * A reader of the catalogue on an e-reader: HTTP Basic (auth/basic-auth.ts), or a signed-in
   * user's bearer token; a 401 asks for Basic credentials. For OPDS and the cover and file calls.
   */
  requireEReader: RequestCheck;
};

const signInRequired = () => new AppError(401, 'Sign-in required', { 'www-authenticate': 'Bearer' });

/**
 * A token is checked from memory (its signature once, then a cache), and its session against the
 * set of sessions ended lately: both O(1), no database read per request. A token issued before
 * tokens named their session has none to check and lives out its 15 minutes.
 */
function bearerToken(tokens: AccessTokens, revocations: Pick<SessionRevocations, 'isRevoked'>): Credential {
  return async (request) => {
    const match = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i);
    if (!match?.[1]) return null;
    const user = await tokens.verify(match[1]);
    if (user.sessionId !== null && revocations.isRevoked(user.sessionId)) {
      throw new AppError(401, 'Your session has ended; please sign in again', { 'www-authenticate': 'Bearer' });
    }
    return { kind: 'user', user };
  };
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The key counts only without an Authorization header: a caller who sends both is judged by the token. */
function booksApiKey(key: string | undefined): Credential {
  return async (request) => {
    const given = request.headers['x-api-key'];
    if (!key || typeof given !== 'string' || request.headers.authorization) return null;
    return sameSecret(given, key) ? { kind: 'books-api-key' } : null;
  };
}

/** The token of a calendar feed's path; routing has set the params before any onRequest hook runs. */
function calendarToken(tokens: Pick<CalendarTokens, 'ownerOf'>): Credential {
  return async (request) => {
    const { token } = request.params as { token?: unknown };
    if (typeof token !== 'string') return null;
    const userId = await tokens.ownerOf(token);
    return userId === null ? null : { kind: 'calendar-feed', userId };
  };
}

function basicPassword(basicAuth: BasicAuth): Credential {
  return async (request) => {
    const userId = await basicAuth(request);
    return userId === null ? null : { kind: 'e-reader', userId };
  };
}

/** The principal of the first credential the request carries, remembered for the request's later checks. */
async function authenticate(request: FastifyRequest, credentials: Credential[]): Promise<Principal | null> {
  if (request.principal) return request.principal;
  for (const credential of credentials) {
    const principal = await credential(request);
    if (principal) {
      request.principal = principal;
      return principal;
    }
  }
  return null;
}

type AuthenticatorDependencies = {
  tokens: AccessTokens;
  revocations: Pick<SessionRevocations, 'isRevoked'>;
  booksKey: string | undefined;
  calendarTokens: Pick<CalendarTokens, 'ownerOf'>;
  basicAuth: BasicAuth;
};

export function createAuthenticator({ tokens, revocations, booksKey, calendarTokens, basicAuth }: AuthenticatorDependencies): Authenticator {
  const users = [bearerToken(tokens, revocations)];
  const readers = [...users, booksApiKey(booksKey)];
  const calendarFeeds = [calendarToken(calendarTokens)];
  const eReaders = [...users, basicPassword(basicAuth)];
  return {
    async requireUser(request) {
      if ((await authenticate(request, users))?.kind !== 'user') throw signInRequired();
    },
    async requireReader(request) {
      if (!(await authenticate(request, readers))) throw signInRequired();
    },
    requireAdmin(action) {
      return async (request) => {
        const principal = await authenticate(request, users);
        if (!principal) throw signInRequired();
        if (principal.kind !== 'user' || !principal.user.admin) throw new AppError(403, `Only administrators may ${action}`);
      };
    },
    async requireCalendarToken(request) {
      if ((await authenticate(request, calendarFeeds))?.kind !== 'calendar-feed') throw notFound('Calendar');
    },
    async requireEReader(request) {
      if (!(await authenticate(request, eReaders))) throw basicSignInRequired();
    },
  };
}

/** The owner of the calendar feed asked for, on routes behind `requireCalendarToken`. */
export function calendarOwnerOf(request: FastifyRequest): string {
  if (request.principal?.kind !== 'calendar-feed') throw notFound('Calendar');
  return request.principal.userId;
}

/** Gives every request its `principal` (none yet) and the `user` read from it. */
export function decorateRequestsWithPrincipal(app: FastifyInstance): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('user', {
    getter(this: FastifyRequest): TokenUser {
      if (this.principal?.kind !== 'user') throw signInRequired();
      return this.principal.user;
    },
  });
}
