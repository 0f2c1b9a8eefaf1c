import { createHash } from 'node:crypto';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatedApiToken } from '../../../contract/api-tokens.ts';
import { NewAppPassword } from '../../../contract/app-passwords.ts';
import { bearer, registerUser, type TestApp, testAppOn } from '../test/test-app.ts';

type Operation = { operationId?: string; security?: Array<Record<string, string[]>> };
type Document = { servers?: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> };

const BOOKS_KEY = 'a shared books key, long enough';
const basic = (email: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` });

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
const schemesOf = (operation: Operation) => (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));

/**
 * Warnings of the recommended rules that are true of the API (docs/http-api.md): calls that have
 * no 4xx answer, a sign-in popup's start that only redirects, and the router's choice of the
 * literal `index` over a book id.
 */
const ACCEPTED_WARNINGS = [
  'operation-4xx-response #/paths/~1api~1health/get/responses',
  'operation-4xx-response #/paths/~1auth~1providers/get/responses',
  'operation-4xx-response #/paths/~1auth~1logout/post/responses',
  'operation-2xx-response #/paths/~1auth~1oidc~1{provider}~1start/get/responses',
  'no-ambiguous-paths #/paths/~1api~1books~1index~1{id}',
  'operation-2xx-response #/paths/~1kosync~1users~1create/post/responses',
];

/** The description describes the app as it is: it is read from a live app, with no database state beyond one user. */
describe('the OpenAPI description', () => {
  let t: TestApp;
  let document: Document;

  beforeAll(async () => {
    t = await testAppOn('sqlite', { env: { BOOKS_API_KEY: BOOKS_KEY } });
    document = (await t.app.inject({ url: '/api/openapi.json' })).json();
  });
  afterAll(() => t.close());

  it("passes Redocly's recommended rules: no error, and only the warnings that describe the API as it is", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: '/api/openapi.json', config });
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    const warnings = problems.map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer}`);
    expect(warnings.sort()).toEqual(ACCEPTED_WARNINGS.toSorted());
  });

  it('names every operation once, from its method and path', () => {
    const operations = operationsOf(document);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    expect(document.paths['/api/books/{id}/file/{format}']?.get?.operationId).toBe('getApiBooksByIdFileByFormat');
    expect(document.paths['/bookmarks']?.post?.operationId).toBe('postBookmarks');
    expect(document.paths['/opds/opensearch.xml']?.get?.operationId).toBe('getOpdsOpensearchXml');
  });

  it('serves from its own origin unless PUBLIC_URL names one', async () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    const behindProxy = await testAppOn('sqlite', { env: { PUBLIC_URL: 'https://organiser.test/' } });
    try {
      const described = (await behindProxy.app.inject({ url: '/api/openapi.json' })).json() as Document;
      expect(described.servers).toEqual([expect.objectContaining({ url: 'https://organiser.test' })]);
    } finally {
      await behindProxy.close();
    }
  });

  it.each([
    ['POST', '/auth/login', []],
    ['GET', '/api/health', []],
    ['GET', '/calendar/{token}.ics', []],
    ['GET', '/api/users/me', ['bearer']],
    ['GET', '/api/admin/users', ['bearer']],
    ['GET', '/bookmarks', ['bearer', 'apiToken']],
    ['GET', '/api/books', ['bearer', 'apiKey']],
    ['POST', '/api/books/index', ['bearer']],
    ['GET', '/opds', ['bearer', 'apiKey', 'basic']],
    ['GET', '/api/books/{id}/cover', ['bearer', 'apiKey', 'basic']],
  ])('gives %s %s the security of the check before it', (method, path, schemes) => {
    const operation = document.paths[path]?.[method.toLowerCase()];
    expect(operation?.security?.length).toBe(schemes.length);
    expect(operation?.security).toEqual(expect.arrayContaining(schemes.map((scheme) => ({ [scheme]: [] }))));
  });

  it('lists a scheme on exactly the operations whose check lets its credential through', async () => {
    const owner = await registerUser(t.app);
    const made = await t.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: bearer(owner.idToken), payload: { name: 'script', scope: 'write' } });
    const appPassword = await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', headers: bearer(owner.idToken), payload: { name: 'reader' } });
    const { password } = NewAppPassword.parse(appPassword.json());
    const credentials: Record<string, Record<string, string>> = {
      apiKey: { 'x-api-key': BOOKS_KEY },
      apiToken: bearer(CreatedApiToken.parse(made.json()).token),
      basic: basic(owner.user.email, password),
      koreader: { 'x-auth-user': owner.user.email, 'x-auth-key': createHash('md5').update(password).digest('hex') },
    };
    // KOReader's routes check the protocol's Accept header before any credential.
    const koreaderAccept = (path: string) => (path.startsWith('/kosync/') ? { accept: 'application/vnd.koreader.v1+json' } : {});
    const guarded = operationsOf(document).filter(({ operation }) => schemesOf(operation).length > 0);
    // Over HTTP rather than injected: the event streams answer their status, then never end.
    const origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const refusals: string[] = [];
    for (const [scheme, headers] of Object.entries(credentials)) {
      for (const { method, path, operation } of guarded) {
        // Checks run before parsing, so a made-up id is answered 404 or 400 only once the credential is taken.
        const url = origin + path.replaceAll(/\{[^}]+\}/g, 'no-such-id');
        const response = await fetch(url, { method, headers: { ...headers, ...koreaderAccept(path) } });
        await response.body?.cancel();
        // KOReader's protocol refuses a credential with 401 alone: its 403 is a field missing.
        const refused = response.status === 401 || (response.status === 403 && !path.startsWith('/kosync/'));
        if (refused === schemesOf(operation).includes(scheme)) refusals.push(`${scheme} ${method} ${path}: ${response.status}`);
      }
    }
    expect(refusals).toEqual([]);
  });
});
