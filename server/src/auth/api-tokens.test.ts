import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiTokens, CreatedApiToken, MAX_API_TOKENS } from '../../../contract/api-tokens.ts';
import { BookmarkPage } from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { bookmarksClient } from '../test/bookmarks-client.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const MINUTE = 60_000;

describe.each(testDialects)('personal API tokens on %s', (dialect) => {
  let t: TestApp;
  let alice: { idToken: string };
  let bob: { idToken: string };

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    alice = await registerUser(t.app);
    bob = await registerUser(t.app);
    return t.close;
  });

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const message = (response: { json(): unknown }) => ErrorReply.parse(response.json()).message;

  async function mint(owner: { idToken: string }, name: string, scope: 'read' | 'write') {
    const response = await call(owner.idToken, 'POST', '/api/users/me/tokens', { name, scope });
    expect(response.statusCode, response.body).toBe(200);
    return CreatedApiToken.parse(response.json());
  }
  async function tokensOf(owner: { idToken: string }) {
    const response = await call(owner.idToken, 'GET', '/api/users/me/tokens');
    expect(response.statusCode, response.body).toBe(200);
    return ApiTokens.parse(response.json());
  }
  const bookmarkCount = async (token: string) => BookmarkPage.parse((await call(token, 'GET', '/bookmarks/')).json()).total;

  it('is shown once, listed without itself, and stored as its SHA-256 only', async () => {
    const created = await mint(alice, '  Firefox extension ', 'write');
    expect(created.token).toMatch(/^org_[A-Za-z0-9_-]{43}$/);
    const listed = (await tokensOf(alice)).find((token) => token.id === created.id);
    expect(listed).toEqual({ id: created.id, name: 'Firefox extension', scope: 'write', createdAt: new Date(t.clock.now()).toISOString(), lastUsedAt: null });
    expect(JSON.stringify(await tokensOf(alice))).not.toContain(created.token);
    const row = await t.storage.db.selectFrom('api_tokens').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(4));
  });

  it('a write token adds, changes and deletes the owner’s bookmarks and tasks', async () => {
    const { token } = await mint(alice, 'script', 'write');
    const viaToken = bookmarksClient(t.app, token);
    const made = await viaToken.create({ title: 'Saved by a script', link: 'https://example.org/script' });
    expect((await bookmarksClient(t.app, alice.idToken).list()).items.map((bookmark) => bookmark.id)).toContain(made.id);
    expect((await call(token, 'PUT', `/bookmarks/${made.id}`, { ...made, title: 'Renamed' })).statusCode).toBe(200);
    expect((await call(token, 'DELETE', `/bookmarks/${made.id}`)).statusCode).toBe(204);
    const task = await call(token, 'POST', '/schedule', { name: 'Water plants', first_schedule_time: '2030-01-01T09:00:00Z', schedule_type: 'd' });
    expect(task.statusCode, task.body).toBe(200);
    expect((await call(token, 'GET', '/schedule')).statusCode).toBe(200);
  });

  it('a read-only token reads and searches, and is refused every write, which changes nothing', async () => {
    const { token } = await mint(alice, 'reader', 'read');
    const own = await bookmarksClient(t.app, alice.idToken).createIndexed({ title: 'Readable', link: 'https://example.org/readable' });
    expect((await call(token, 'GET', '/bookmarks/')).statusCode).toBe(200);
    expect((await call(token, 'GET', `/bookmarks/${own.id}`)).statusCode).toBe(200);
    expect((await call(token, 'POST', '/api/bookmarks/query', { key_words: ['readable'] })).statusCode).toBe(200);
    expect((await call(token, 'GET', '/schedule')).statusCode).toBe(200);
    const before = await bookmarkCount(alice.idToken);
    const writes = [
      call(token, 'POST', '/bookmarks/', { title: 'No', link: 'https://example.org/no' }),
      call(token, 'PUT', `/bookmarks/${own.id}`, { ...own, title: 'Changed' }),
      call(token, 'DELETE', `/bookmarks/${own.id}`),
      call(token, 'POST', '/bookmarks/bulk', { action: 'delete', ids: [own.id] }),
      call(token, 'POST', '/api/bookmarks/', own),
      call(token, 'POST', '/bookmarks/preview', { link: 'https://example.org/' }),
      call(token, 'POST', '/schedule', { name: 'No', first_schedule_time: '2030-01-01T09:00:00Z', schedule_type: 'd' }),
    ];
    for (const response of await Promise.all(writes)) {
      expect(response.statusCode).toBe(403);
      expect(message(response)).toBe('This API token is read-only: it may only read bookmarks and tasks');
    }
    expect(await bookmarkCount(alice.idToken)).toBe(before);
    expect((await bookmarksClient(t.app, alice.idToken).list()).items.find((bookmark) => bookmark.id === own.id)?.title).toBe('Readable');
  });

  it('is refused on account, profile, token and catalogue calls: a leaked token cannot mint more or reach the account', async () => {
    const { token } = await mint(alice, 'leaky', 'write');
    const countBefore = (await tokensOf(alice)).length;
    for (const [method, url, payload] of [
      ['GET', '/api/users/me'],
      ['PUT', '/api/users/me', { timezone: 'Europe/Paris' }],
      ['GET', '/api/users/me/tokens'],
      ['POST', '/api/users/me/tokens', { name: 'more', scope: 'write' }],
      ['GET', '/api/users/me/sessions'],
      ['GET', '/api/books'],
    ] as const) {
      const response = await call(token, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(message(response)).toBe('API tokens are accepted on bookmark and task calls only; sign in for this one');
    }
    expect(await tokensOf(alice)).toHaveLength(countBefore);
  });

  it('a revoked token is refused at once', async () => {
    const { id, token } = await mint(alice, 'to revoke', 'write');
    expect((await call(token, 'GET', '/bookmarks/')).statusCode).toBe(200);
    expect((await call(alice.idToken, 'DELETE', `/api/users/me/tokens/${id}`)).statusCode).toBe(204);
    const refused = await call(token, 'GET', '/bookmarks/');
    expect(refused.statusCode).toBe(401);
    expect(message(refused)).toBe('This API token is not valid: it may have been revoked');
    expect((await tokensOf(alice)).map((listed) => listed.id)).not.toContain(id);
  });

  it('answers 404 for another user’s token or an unknown one, and leaves the token working', async () => {
    const { id, token } = await mint(alice, 'mine', 'read');
    expect((await call(bob.idToken, 'DELETE', `/api/users/me/tokens/${id}`)).statusCode).toBe(404);
    expect((await call(alice.idToken, 'DELETE', '/api/users/me/tokens/no-such-token')).statusCode).toBe(404);
    expect((await tokensOf(bob)).map((listed) => listed.id)).not.toContain(id);
    expect((await call(token, 'GET', '/bookmarks/')).statusCode).toBe(200);
  });

  it('shows one user’s bookmarks only to that user’s tokens', async () => {
    const mine = await bookmarksClient(t.app, alice.idToken).create({ title: 'Alice only', link: 'https://example.org/alice-only' });
    const { token } = await mint(bob, 'bob’s', 'write');
    expect((await call(token, 'GET', `/bookmarks/${mine.id}`)).statusCode).toBe(404);
    expect((await call(token, 'DELETE', `/bookmarks/${mine.id}`)).statusCode).toBe(404);
  });

  it('refuses a token that was never issued, with or without the prefix', async () => {
    expect((await call('org_not-a-real-token', 'GET', '/bookmarks/')).statusCode).toBe(401);
    expect((await call('not-a-jwt-either', 'GET', '/bookmarks/')).statusCode).toBe(401);
  });

  it('notes the last use to the minute, without a write for every request', async () => {
    const { id, token } = await mint(alice, 'busy', 'read');
    const lastUsed = async () => (await tokensOf(alice)).find((listed) => listed.id === id)?.lastUsedAt;
    const first = t.clock.now();
    await call(token, 'GET', '/bookmarks/');
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    t.clock.advance(30_000);
    await call(token, 'GET', '/bookmarks/');
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    t.clock.advance(MINUTE);
    await call(token, 'GET', '/bookmarks/');
    expect(await lastUsed()).toBe(new Date(t.clock.now()).toISOString());
  });

  it.each([
    [{ scope: 'read' }, 'name is required'],
    [{ name: '   ', scope: 'read' }, 'name is required'],
    [{ name: 'x'.repeat(101), scope: 'read' }, 'Name must be at most 100 characters'],
    [{ name: 'admin', scope: 'admin' }, 'scope: must be "read" or "write"'],
    [{ name: 'extra', scope: 'read', owner: 'bob' }, 'Unrecognized key: "owner"'],
  ])('refuses %j with 400 "%s" and makes no token', async (body, expected) => {
    const before = (await tokensOf(bob)).length;
    const response = await call(bob.idToken, 'POST', '/api/users/me/tokens', body);
    expect(response.statusCode).toBe(400);
    expect(message(response)).toContain(expected);
    expect(await tokensOf(bob)).toHaveLength(before);
  });

  it('is described in the OpenAPI description on the bookmark and task calls, and only there', async () => {
    const description = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      components: { securitySchemes: Record<string, { scheme?: string }> };
      paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>>;
    };
    expect(description.components.securitySchemes.apiToken?.scheme).toBe('bearer');
    const takesToken = (path: string, method: string) => (description.paths[path]?.[method]?.security ?? []).some((scheme) => 'apiToken' in scheme);
    expect(takesToken('/bookmarks', 'post')).toBe(true);
    expect(takesToken('/bookmarks/preview', 'post')).toBe(true);
    expect(takesToken('/schedule/{id}', 'put')).toBe(true);
    expect(takesToken('/api/users/me', 'get')).toBe(false);
    expect(takesToken('/api/users/me/tokens', 'post')).toBe(false);
  });

  it(`holds at most ${MAX_API_TOKENS} tokens per user`, async () => {
    const carol = await registerUser(t.app);
    for (let i = 0; i < MAX_API_TOKENS; i++) await mint(carol, `token ${i}`, 'read');
    const refused = await call(carol.idToken, 'POST', '/api/users/me/tokens', { name: 'one more', scope: 'read' });
    expect(refused.statusCode).toBe(409);
    expect(await tokensOf(carol)).toHaveLength(MAX_API_TOKENS);
  });
});
