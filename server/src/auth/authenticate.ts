import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_TOKEN_PREFIX, type ApiTokenScope } from '../../../contract/api-tokens.ts';
import { AppError, notFound } from '../errors.ts';
import type { CredentialScheme, RequestCheck } from '../http/request-check.ts';
import type { AccountsService } from '../users/accounts.service.ts';
import type { ApiTokensService } from './api-tokens.service.ts';
import { type BasicAuth, basicSignInRequired } from './basic-auth.ts';
import { type SyncKeyAuth, syncUnauthorized } from './sync-key-auth.ts';
import type { CalendarTokens } from './calendar-tokens.ts';
import type { DisabledAccounts } from './disabled-accounts.ts';
import type { SessionRevocations } from './session-revocations.ts';
import type { AccessTokens, TokenUser } from './tokens.ts';

/**
 * Who a request has shown itself to be: a signed-in user, a user's personal API token, a holder
 * of the shared books key, a holder of a user's calendar token, which opens that user's calendar
 * feed and nothing else, or an e-reader signed in with HTTP Basic, which opens the catalogue
 * (OPDS, covers, files) and nothing else.
 */
export type Principal =
  | { kind: 'user'; user: TokenUser }
  | { kind: 'api-token'; user: TokenUser; scope: ApiTokenScope }
  | { kind: 'books-api-key' }
  | { kind: 'calendar-feed'; userId: string }
  | { kind: 'e-reader'; userId: string }
  | { kind: 'dav-client'; userId: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the checks below; null on public routes and before a check has run. */
    principal: Principal | null;
    /** The signed-in user (or the API token's owner), on routes behind a user's check; elsewhere reading it fails with a 401. */
    readonly user: TokenUser;
  }
  interface FastifyContextConfig {
    /** A call that changes nothing although it is not a GET (a search): a read-only API token may make it. */
    reads?: boolean;
    /** The route answers a user who must still replace a temporary password (the change itself, the user record). */
    beforePasswordChange?: boolean;
  }
}

/** The route config of a POST that only reads. */
export const READ_ROUTE = { reads: true };


/**
 * One way for a request to show who it is: `identify` answers null when the request does not
 * carry it, a 401 when it carries it and it is not good.
 */
type Credential = { scheme: CredentialScheme | null; identify(request: FastifyRequest): Promise<Principal | null> };
const credential = (scheme: Credential['scheme'], identify: Credential['identify']): Credential => ({ scheme, identify });


/** Puts `check` before every route registered in `scope` from now on, as a hook of the route itself, where the API description reads it. */
export function guardRoutes(scope: FastifyInstance, check: RequestCheck): void {
  scope.addHook('onRoute', (route) => {
    route.onRequest = [check, ...[route.onRequest ?? []].flat()];
  });
}

export type Authenticator = {
  /** A signed-in user (a bearer token of a session): account, profile and token calls, which an API token may not make. */
  requireUser: RequestCheck;
  /** A signed-in user or a personal API token (bookmark and task calls); a read-only token only on reads. */
  requireUserOrApiToken: RequestCheck;
  /**
   * A personal API token, as `Token org_…` (linkding's clients) or `Bearer org_…`: the linkding
   * API (bookmarks/linkding/linkding-api.routes.ts); a read-only token only on reads. A session's token is
   * not taken: linkding's clients have none.
   */
  requireApiToken: RequestCheck;
  /** A reader of the catalogue: a signed-in user, or a caller with the shared `X-API-Key` (docs/behaviour/books.md). */
  requireReader: RequestCheck;
  /**
   * A signed-in user whose account administers now (read from the database: administrators' calls
   * are few); `action` completes "Only administrators may …".
   */
  requireAdmin(action: string): RequestCheck;
  /** A calendar token in the path (`:token`); an unknown or revoked one is a 404, as for a page that is not there. */
  requireCalendarToken: RequestCheck;
  /**
   * A reader of the catalogue, or an e-reader with HTTP Basic (auth/basic-auth.ts); a 401 asks
   * for Basic credentials. For OPDS and the cover and file calls its links lead to.
   */
  requireEReader: RequestCheck;
  /**
   * KOReader's progress sync: the account's e-mail in `x-auth-user` and the MD5 of one of its app
   * passwords in `x-auth-key` (auth/sync-key-auth.ts). Its refusal is the protocol's 401.
   */
  requireSyncKey: RequestCheck;
  /** A CalDAV client: the account's e-mail and an app password with HTTP Basic (auth/basic-auth.ts), and nothing else. */
  requireDavClient: RequestCheck;
};

const readOnlyToken = () => new AppError(403, 'This API token is read-only: it may only read bookmarks and tasks');

/** Refusals of a signed-in user's request, told the same wherever the request is checked. */
export const signInRequired = () => new AppError(401, 'Sign-in required', { 'www-authenticate': 'Bearer' });
export const accountDisabled = () =>
  new AppError(401, 'This account has been disabled; ask an administrator', { 'www-authenticate': 'Bearer' });
export const passwordChangeFirst = () =>
  new AppError(403, 'Choose a new password first: an administrator set a temporary one (PUT /api/users/me/password)');
export const sessionEnded = () => new AppError(401, 'Your session has ended; please sign in again', { 'www-authenticate': 'Bearer' });

type Refusals = { revocations: Pick<SessionRevocations, 'isRevoked'>; disabled: Pick<DisabledAccounts, 'isDisabled'> };

/**
 * A token is checked from memory (its signature once, then a cache), and its session against the
 * set of sessions ended lately: both O(1), no database read per request. A token issued before
 * tokens named their session has none to check and lives out its 15 minutes.
 */
function bearerToken(tokens: AccessTokens, { revocations, disabled }: Refusals): Credential {
  return credential('bearer', async (request) => {
    const token = bearerOf(request);
    if (token === null) return null;
    // Where API tokens are taken, their credential has answered before this one.
    if (token.startsWith(API_TOKEN_PREFIX)) throw new AppError(403, 'API tokens are accepted on bookmark and task calls only; sign in for this one');
    const user = await tokens.verify(token);
    // Told first: disabling ends the sessions too, and this says why.
    if (disabled.isDisabled(user.uid)) throw accountDisabled();
    if (user.sessionId !== null && revocations.isRevoked(user.sessionId)) {
      throw sessionEnded();
    }
    return { kind: 'user', user };
  });
}

const bearerOf = (request: FastifyRequest): string | null => request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? null;

/** A personal API token (`Bearer org_…`), told from a session's JWT by its prefix before any lookup. */
function apiToken(apiTokens: Pick<ApiTokensService, 'authenticate'>, disabled: Refusals['disabled']): Credential {
  return credential('apiToken', async (request) => {
    const token = bearerOf(request);
    if (token === null || !token.startsWith(API_TOKEN_PREFIX)) return null;
    return apiTokenHolder(apiTokens, disabled, token, 'Bearer');
  });
}

/**
 * A personal API token as linkding's clients send it (`Token org_…`): only behind the linkding
 * API, where nothing else is taken. Any other word after `Token` is a token that is not good.
 */
function linkdingToken(apiTokens: Pick<ApiTokensService, 'authenticate'>, disabled: Refusals['disabled']): Credential {
  return credential('linkdingToken', async (request) => {
    const token = request.headers.authorization?.match(/^Token\s+(\S+)$/i)?.[1];
    if (token === undefined) return null;
    return apiTokenHolder(apiTokens, disabled, token, 'Token');
  });
}

/** The holder of a personal API token, read from the database: a revoked token or a disabled account is refused at once. */
async function apiTokenHolder(
  apiTokens: Pick<ApiTokensService, 'authenticate'>,
  disabled: Refusals['disabled'],
  token: string,
  scheme: 'Bearer' | 'Token',
): Promise<Principal> {
  const bearer = token.startsWith(API_TOKEN_PREFIX) ? await apiTokens.authenticate(token) : null;
  if (!bearer) throw new AppError(401, 'This API token is not valid: it may have been revoked', { 'www-authenticate': scheme });
  if (disabled.isDisabled(bearer.user.uid)) throw new AppError(401, 'This account has been disabled; ask an administrator', { 'www-authenticate': scheme });
  return { kind: 'api-token', user: bearer.user, scope: bearer.scope };
}

const isRead = (request: FastifyRequest) =>
  request.method === 'GET' || request.method === 'HEAD' || request.routeOptions.config.reads === true;

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The key counts only without an Authorization header: a caller who sends both is judged by the token. */
function booksApiKey(key: string | undefined): Credential {
  return credential('apiKey', async (request) => {
    const given = request.headers['x-api-key'];
    if (!key || typeof given !== 'string' || request.headers.authorization) return null;
    return sameSecret(given, key) ? { kind: 'books-api-key' } : null;
  });
}

/**
 * The token of a calendar feed's path; routing has set the params before any onRequest hook runs.
 * A disabled account's feed is not there, as an unknown token's.
 */
function calendarToken(tokens: Pick<CalendarTokens, 'ownerOf'>, disabled: Refusals['disabled']): Credential {
  return credential(null, async (request) => {
    const { token } = request.params as { token?: unknown };
    if (typeof token !== 'string') return null;
    const userId = await tokens.ownerOf(token);
    return userId === null || disabled.isDisabled(userId) ? null : { kind: 'calendar-feed', userId };
  });
}

/** Read from the token: the token issued once the password is changed no longer says it. */
function assertPasswordChanged(request: FastifyRequest, user: TokenUser): void {
  if (user.passwordChangeRequired && !request.routeOptions.config.beforePasswordChange) throw passwordChangeFirst();
}

function basicPassword(basicAuth: BasicAuth): Credential {
  return credential('basic', async (request) => {
    const userId = await basicAuth(request);
    return userId === null ? null : { kind: 'e-reader', userId };
  });
}

function davBasicPassword(basicAuth: BasicAuth): Credential {
  return credential('basic', async (request) => {
    const userId = await basicAuth(request);
    return userId === null ? null : { kind: 'dav-client', userId };
  });
}

function syncKey(syncKeyAuth: SyncKeyAuth): Credential {
  return credential('koreader', async (request) => {
    const userId = await syncKeyAuth(request);
    return userId === null ? null : { kind: 'e-reader', userId };
  });
}

/** The principal of the first credential the request carries, remembered for the request's later checks. */
async function authenticate(request: FastifyRequest, credentials: Credential[]): Promise<Principal | null> {
  if (request.principal) return request.principal;
  for (const credential of credentials) {
    const principal = await credential.identify(request);
    if (principal) {
      request.principal = principal;
      return principal;
    }
  }
  return null;
}

/** A check that judges the principal of the first of `credentials` the request carries, and names their schemes. */
function checkOf(
  credentials: Credential[],
  judge: (request: FastifyRequest, principal: Principal | null) => void | Promise<void>,
): RequestCheck {
  const check = async (request: FastifyRequest) => judge(request, await authenticate(request, credentials));
  return Object.assign(check, { schemes: credentials.flatMap(({ scheme }) => (scheme ? [scheme] : [])) });
}

type AuthenticatorDependencies = Refusals & {
  tokens: AccessTokens;
  apiTokens: Pick<ApiTokensService, 'authenticate'>;
  booksKey: string | undefined;
  calendarTokens: Pick<CalendarTokens, 'ownerOf'>;
  basicAuth: BasicAuth;
  syncKeyAuth: SyncKeyAuth;
  administrators: Pick<AccountsService, 'administers'>;
};

export function createAuthenticator({
  tokens,
  apiTokens,
  revocations,
  disabled,
  booksKey,
  calendarTokens,
  basicAuth,
  syncKeyAuth,
  administrators,
}: AuthenticatorDependencies): Authenticator {
  const users = [bearerToken(tokens, { revocations, disabled })];
  const owners = [apiToken(apiTokens, disabled), ...users];
  const tokenHolders = [linkdingToken(apiTokens, disabled), apiToken(apiTokens, disabled)];
  const readers = [...users, booksApiKey(booksKey)];
  const calendarFeeds = [calendarToken(calendarTokens, disabled)];
  // E-readers follow OPDS's links to covers and files with the Basic credential they signed in with.
  const eReaders = [...readers, basicPassword(basicAuth)];
  return {
    requireUser: checkOf(users, (request, principal) => {
      if (principal?.kind !== 'user') throw signInRequired();
      assertPasswordChanged(request, principal.user);
    }),
    requireUserOrApiToken: checkOf(owners, (request, principal) => {
      if (principal?.kind !== 'user' && principal?.kind !== 'api-token') throw signInRequired();
      if (principal.kind === 'user') assertPasswordChanged(request, principal.user);
      if (principal.kind === 'api-token' && principal.scope === 'read' && !isRead(request)) {
        throw readOnlyToken();
      }
    }),
    requireApiToken: checkOf(tokenHolders, (request, principal) => {
      if (principal?.kind !== 'api-token') throw new AppError(401, 'An API token is required: send it as "Authorization: Token org_…"', { 'www-authenticate': 'Token' });
      if (principal.scope === 'read' && !isRead(request)) throw readOnlyToken();
    }),
    requireReader: checkOf(readers, (request, principal) => {
      if (!principal) throw signInRequired();
      if (principal.kind === 'user') assertPasswordChanged(request, principal.user);
    }),
    requireAdmin: (action) =>
      checkOf(users, async (request, principal) => {
        if (!principal) throw signInRequired();
        // The account's row, not the token's claim: a token lives 15 minutes, and an administrator
        // unmade (or made) meanwhile is one (or not) from the change on, on every instance.
        if (principal.kind !== 'user' || !(await administrators.administers(principal.user.uid))) {
          throw new AppError(403, `Only administrators may ${action}`);
        }
        assertPasswordChanged(request, principal.user);
      }),
    requireCalendarToken: checkOf(calendarFeeds, (_request, principal) => {
      if (principal?.kind !== 'calendar-feed') throw notFound('Calendar');
    }),
    requireEReader: checkOf(eReaders, (_request, principal) => {
      if (!principal) throw basicSignInRequired();
    }),
    requireSyncKey: checkOf([syncKey(syncKeyAuth)], (_request, principal) => {
      if (principal?.kind !== 'e-reader') throw syncUnauthorized();
    }),
    requireDavClient: checkOf([davBasicPassword(basicAuth)], (_request, principal) => {
      if (principal?.kind !== 'dav-client') throw basicSignInRequired();
    }),
  };
}

/** The user an e-reader signed in as (HTTP Basic or KOReader's sync key), on routes behind `requireSyncKey`. */
export function eReaderUserOf(request: FastifyRequest): string {
  if (request.principal?.kind !== 'e-reader') throw syncUnauthorized();
  return request.principal.userId;
}

/** The user a CalDAV client signed in as, on routes behind `requireDavClient`. */
export function davUserOf(request: FastifyRequest): string {
  if (request.principal?.kind !== 'dav-client') throw basicSignInRequired();
  return request.principal.userId;
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
      if (this.principal?.kind !== 'user' && this.principal?.kind !== 'api-token') throw signInRequired();
      return this.principal.user;
    },
  });
}
