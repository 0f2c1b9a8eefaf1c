import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { installErrorHandler } from '../errors.ts';
import { manualClock } from '../test/manual-clock.ts';
import { createAuthenticator, decorateRequestsWithPrincipal } from './authenticate.ts';
import { createAccessTokens } from './tokens.ts';

const BOOKS_KEY = 'a-shared-key-for-readers';

describe('authenticate', () => {
  const tokens = createAccessTokens(new TextEncoder().encode('a test secret of at least 32 characters'), manualClock());
  const revoked = new Set(['ended-session']);
  const disabled = new Set(['disabled-user']);
  const { requireUser, requireReader, requireAdmin } = createAuthenticator({
    tokens,
    // API tokens are tested with the app (api-tokens.test.ts), on a real database.
    apiTokens: { authenticate: async () => null },
    revocations: { isRevoked: (id) => revoked.has(id) },
    disabled: { isDisabled: (id) => disabled.has(id) },
    booksKey: BOOKS_KEY,
    calendarTokens: { ownerOf: async () => null },
    basicAuth: async () => null,
    // KOReader's key is tested with the app (reading/koreader.test.ts), on a real database.
    syncKeyAuth: async () => null,
    // Whether an account administers is read from the database: admin.test.ts and books.test.ts.
    administrators: { administers: async (id) => id === 'a1' },
  });
  let app: FastifyInstance;
  let user: string;
  let admin: string;

  beforeAll(async () => {
    app = Fastify();
    installErrorHandler(app);
    decorateRequestsWithPrincipal(app);
    app.get('/public', async (request) => ({ principal: request.principal, uid: request.user.uid }));
    app.get('/user', { onRequest: requireUser }, async (request) => ({ uid: request.user.uid }));
    app.get('/user-record', { onRequest: requireUser, config: { beforePasswordChange: true } }, async (request) => ({ uid: request.user.uid }));
    app.get('/reader', { onRequest: requireReader }, async (request) => ({ kind: request.principal?.kind }));
    app.get('/admin', { onRequest: requireAdmin('administer') }, async (request) => ({ uid: request.user.uid }));
    app.get('/reader-then-admin', { onRequest: [requireReader, requireAdmin('administer')] }, async () => ({ ok: true }));
    user = await tokens.sign({ uid: 'u1', email: 'u1@example.org', displayName: 'One', admin: false }, 'session-1');
    admin = await tokens.sign({ uid: 'a1', email: 'a1@example.org', displayName: 'Admin', admin: true }, 'session-2');
  });
  afterAll(() => app.close());

  const call = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ url, headers });
    return { status: response.statusCode, body: response.json() as unknown };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const key = { 'x-api-key': BOOKS_KEY };

  it('reads request.user only where a user signed in: elsewhere it is a 401, never null', async () => {
    const anonymous = await call('/public', bearer(user));
    expect(anonymous.status).toBe(401);
    expect(ErrorReply.parse(anonymous.body).message).toBe('Sign-in required');
    expect(await call('/user', bearer(user))).toEqual({ status: 200, body: { uid: 'u1' } });
  });

  it('lets the books key read, and nothing more', async () => {
    expect(await call('/reader', key)).toEqual({ status: 200, body: { kind: 'books-api-key' } });
    expect(await call('/reader', bearer(user))).toEqual({ status: 200, body: { kind: 'user' } });
    expect((await call('/user', key)).status).toBe(401);
    expect((await call('/admin', key)).status).toBe(401);
    expect((await call('/reader-then-admin', key)).status).toBe(403);
  });

  it('judges a caller who sends a token and a key by the token', async () => {
    expect((await call('/reader', { ...key, authorization: 'Bearer not-a-token' })).status).toBe(401);
  });

  it('lets only administrators through requireAdmin, saying what they may do', async () => {
    const refused = await call('/admin', bearer(user));
    expect(refused.status).toBe(403);
    expect(ErrorReply.parse(refused.body).message).toBe('Only administrators may administer');
    expect(await call('/admin', bearer(admin))).toEqual({ status: 200, body: { uid: 'a1' } });
    expect(await call('/reader-then-admin', bearer(admin))).toEqual({ status: 200, body: { ok: true } });
    expect((await call('/admin')).status).toBe(401);
  });

  it('refuses every token of a disabled account at once, whatever its session', async () => {
    const token = await tokens.sign({ uid: 'disabled-user', email: 'd@example.org', displayName: 'D', admin: true }, 'session-3');
    for (const url of ['/user', '/reader', '/admin']) {
      const refused = await call(url, bearer(token));
      expect(refused.status).toBe(401);
      expect(ErrorReply.parse(refused.body).message).toBe('This account has been disabled; ask an administrator');
    }
    expect((await call('/user', bearer(user))).status).toBe(200);
  });

  it('holds a user with a temporary password to the routes that let them change it', async () => {
    const token = await tokens.sign({ uid: 'u2', email: 'u2@example.org', displayName: 'Two', admin: false, passwordChangeRequired: true }, 'session-4');
    const refused = await call('/user', bearer(token));
    expect(refused.status).toBe(403);
    expect(ErrorReply.parse(refused.body).message).toMatch(/^Choose a new password first/);
    expect(await call('/user-record', bearer(token))).toEqual({ status: 200, body: { uid: 'u2' } });
    expect((await call('/user-record', bearer(user))).status).toBe(200);
  });

  it('refuses a token whose session has ended, and only that one', async () => {
    const ended = await tokens.sign({ uid: 'u1', email: 'u1@example.org', displayName: 'One', admin: false }, 'ended-session');
    const refused = await call('/user', bearer(ended));
    expect(refused.status).toBe(401);
    expect(ErrorReply.parse(refused.body).message).toBe('Your session has ended; please sign in again');
    expect((await call('/user', bearer(user))).status).toBe(200);
  });
});
