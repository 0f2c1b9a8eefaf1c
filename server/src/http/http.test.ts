import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { HealthReply } from '../../../contract/health.ts';
import { buildTestApp, createTestDatabase, type TestApp, testDialects } from '../test/test-app.ts';

describe.each(testDialects)('http surface on %s', (dialect) => {
  let t: TestApp;
  let webDist: string;

  beforeEach(async () => {
    const database = await createTestDatabase(dialect);
    // A stand-in client build, so that serving and fallback are tested without running Vite.
    webDist = database.dataDir;
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Organiser</title>');
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'assets', 'main-abc123.js'), 'console.log(1)');
    t = await buildTestApp(database);
    return async () => {
      await t.close();
      await database.drop();
    };
  });

  it('reports health with the storage in use', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(HealthReply.parse(response.json())).toEqual({ status: 'ok', storage: dialect, search_index: { state: 'idle' } });
  });

  it('describes the API from the route schemas', async () => {
    const spec = (await t.app.inject({ url: '/api/openapi.json' })).json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/auth/login', '/auth/register', '/auth/refresh', '/auth/logout', '/auth/providers', '/api/users/me', '/api/health']),
    );
    const login = spec.paths['/auth/login'].post.requestBody.content['application/json'].schema;
    expect(login.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(login.additionalProperties).toBe(false);
  });

  it.each(['/', '/book', '/task/42', '/bookmark/query', '/login', '/no/such/page'])(
    'answers the client route %s with index.html and a strict CSP',
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<title>Organiser</title>');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it('serves hashed assets as immutable', async () => {
    const response = await t.app.inject({ url: '/assets/main-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it.each([
    ['/api/books/%zz', 400, 'The URL does not decode: each % must start the escape of a UTF-8 character'],
    ['/schedule/%c0%80', 400, 'The URL does not decode: each % must start the escape of a UTF-8 character'],
    [`/bookmarks/${'1'.repeat(101)}`, 414, 'A path parameter is longer than 100 characters'],
  ])('answers the URL %s, which the router refuses, in the one error shape', async (url, statusCode, message) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode).toBe(statusCode);
    expect(response.json()).toEqual({ statusCode, error: statusCode === 400 ? 'Bad Request' : 'URI Too Long', message });
  });

  it.each(['/api/nothing', '/auth/nothing', '/schedule/x/y', '/bookmarks/x/y'])(
    'answers an unknown API path %s with a JSON 404, not the page',
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
      expect(response.headers['content-security-policy']).toBeDefined();
    },
  );
});
