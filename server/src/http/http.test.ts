import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { HealthReply } from '../../../contract/health.ts';
import { buildTestApp, createTestDatabase, type TestApp, testDialects } from '../test/test-app.ts';

/** What a browser sends when it loads a page (Chromium's and Firefox's navigations). */
const BROWSER_PAGE_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A script with a Brotli and a gzip copy beside it, as the build leaves each one. */
const script = 'console.log("the first page");'.repeat(50);

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
    fs.writeFileSync(path.join(webDist, 'manifest.webmanifest'), '{"name":"Organiser"}');
    fs.writeFileSync(path.join(webDist, 'assets', 'page-abc123.js'), script);
    fs.writeFileSync(path.join(webDist, 'assets', 'page-abc123.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(webDist, 'assets', 'page-abc123.js.gz'), zlib.gzipSync(script));
    fs.writeFileSync(path.join(webDist, 'index.html.br'), zlib.brotliCompressSync('<!doctype html><title>Organiser</title>'));
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
      const response = await t.app.inject({ url, headers: { accept: BROWSER_PAGE_ACCEPT } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<title>Organiser</title>');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-cache');
    },
  );

  it('gives the reader page alone the frames and styles its book needs, and still no script but the app\'s', async () => {
    const policy = (url: string) => t.app.inject({ url, headers: { accept: BROWSER_PAGE_ACCEPT } }).then((reply) => String(reply.headers['content-security-policy']));
    const directives = (header: string) => Object.fromEntries(header.split(';').map((part) => part.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values]));
    const reader = directives(await policy('/book/42/read/epub'));
    expect(reader['frame-src']).toEqual(['blob:']);
    expect(reader['style-src']).toEqual(["'self'", 'blob:', "'unsafe-inline'"]);
    expect(reader['script-src']).toEqual(["'self'"]);
    expect(reader['default-src']).toEqual(["'self'"]);
    for (const url of ['/book/42', '/book/42/reader/epub', '/book/read/epub', '/api/books/42/file/epub']) {
      const other = directives(await policy(url));
      expect(other['frame-src'], url).toBeUndefined();
      expect(other['style-src'], url).toEqual(["'self'"]);
    }
  });

  it('lets the create form the bookmarklet opens keep its opener, and no other page', async () => {
    const opener = (url: string) => t.app.inject({ url, headers: { accept: BROWSER_PAGE_ACCEPT } }).then((reply) => reply.headers['cross-origin-opener-policy']);
    expect(await opener('/bookmark/create?url=https%3A%2F%2Fexample.org%2F&title=x&capture=1')).toBe('unsafe-none');
    expect(await opener('/bookmark/create?capture=1')).toBe('unsafe-none');
    for (const url of ['/bookmark/create', '/bookmark/create?capture=10', '/bookmark/create?nocapture=1', '/bookmark/1?capture=1', '/book']) {
      expect(await opener(url), url).toBe('same-origin-allow-popups');
    }
  });

  it.each([
    ['GET', '/users/auth', 'application/vnd.koreader.v1+json'],
    ['GET', '/kobo/abc/v1/initialization', '*/*'],
    ['GET', '/kobo/abc/v1/library/sync', undefined],
    ['PROPFIND', '/.well-known/carddav', 'text/html'],
    ['POST', '/no/such/page', BROWSER_PAGE_ACCEPT],
  ])('answers %s %s (Accept: %s), which no route serves, with a JSON 404 rather than the page', async (method, url, accept) => {
    const response = await t.app.inject({ method: method as 'GET', url, headers: accept === undefined ? {} : { accept } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: `Route ${method} ${url} not found` });
  });

  it('answers a HEAD of a client route the way its page load is answered', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: '/book/42', headers: { accept: BROWSER_PAGE_ACCEPT } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });

  it('serves hashed assets as immutable', async () => {
    const response = await t.app.inject({ url: '/assets/main-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  describe('with the copies the build compressed beside each file', () => {
    it.each([
      ['gzip, deflate, br, zstd', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
      ['br;q=0.5, gzip;q=0.9', 'gzip', zlib.gunzipSync],
    ])('sends the copy Accept-Encoding %s prefers (%s), and says that the reply varies by it', async (accept, encoding, decode) => {
      const response = await t.app.inject({ url: '/assets/page-abc123.js', headers: { 'accept-encoding': accept } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toContain('immutable');
      expect(decode(response.rawPayload).toString()).toBe(script);
    });

    it('sends the file as it is to a client that accepts no compression', async () => {
      const response = await t.app.inject({ url: '/assets/page-abc123.js', headers: { 'accept-encoding': 'identity' } });
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.body).toBe(script);
    });

    it('sends a client route\'s index.html compressed too', async () => {
      const response = await t.app.inject({ url: '/book', headers: { accept: BROWSER_PAGE_ACCEPT, 'accept-encoding': 'gzip, br' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toContain('<title>Organiser</title>');
    });
  });

  it('serves the web app manifest with its own content type', async () => {
    const response = await t.app.inject({ url: '/manifest.webmanifest' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.headers['content-security-policy']).toContain("manifest-src 'self'");
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
