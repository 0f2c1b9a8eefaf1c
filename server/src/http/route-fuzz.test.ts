import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookmarksClient } from '../test/bookmarks-client.ts';
import { type HostileRequest, hostileRequests, type OpenApiDocument, routesTakingInput } from '../test/hostile-requests.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';

const SEED = 20_260_311;
const ERROR_KEYS = ['error', 'message', 'statusCode'];
/** KOReader's sync speaks its own protocol, whose errors are `{code, message}` (reading/kosync.routes.ts). */
const KOREADER_ERROR_KEYS = ['code', 'message'];
/** linkding's API answers in linkding's shapes (bookmarks/linkding/linkding-errors.ts): `{detail}`, or each bad field with its messages. */
const isLinkdingError = (body: unknown) =>
  typeof body === 'object' &&
  body !== null &&
  (JSON.stringify(Object.keys(body)) === '["detail"]'
    ? typeof (body as { detail: unknown }).detail === 'string'
    : Object.values(body).length > 0 && Object.values(body).every((messages) => Array.isArray(messages) && messages.every((m) => typeof m === 'string')));
/** Requests in flight at once: password hashing runs on libuv's threads meanwhile. */
const AT_ONCE = 6;

async function inParallel<T>(items: T[], width: number, run: (item: T, index: number) => Promise<void>) {
  // One iterator shared by the workers: each takes the next item when it is free.
  const queue = items.entries();
  const worker = async () => {
    for (const [index, item] of queue) await run(item, index);
  };
  await Promise.all(Array.from({ length: width }, worker));
}

/**
 * Values a schema cannot say: a field that must name a time zone, a link. The password is empty,
 * so no request of the fuzz is hashed (0.1 s alone, seconds on a busy machine), and its own
 * variants are skipped: it is only hashed, never stored or searched (sign-ups with hostile names,
 * e-mails and passwords have tests of their own, in hostile-input.test.ts).
 */
const HINTS: Record<string, unknown> = {
  email: 'fuzz@example.org',
  password: '',
  timezone: 'Europe/Paris',
  link: 'https://example.org/fuzz',
  first_schedule_time: '2030-01-02T09:00:00Z',
};

/**
 * Every route the app documents that reads input gets hostile bodies, queries, headers and path
 * parameters, signed in as a user and as an admin; none may answer 5xx, and every error has the
 * one shape (docs/behaviour/bad-input-and-limits.md). Routes are read from the app's own OpenAPI document, so a route added
 * later is fuzzed without a change here.
 */
describe.each(testDialects)('every route against hostile input on %s', (dialect) => {
  let t: TestApp;
  let drop: () => Promise<void>;
  let tokens: { user: string; admin: string };
  /** The user's personal API token, which linkding's API takes as `Token …`. */
  let apiToken: string;
  let document: OpenApiDocument;
  let pathValues: Record<string, Record<string, string>>;

  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    drop = database.drop;
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    const admin = (await registerUser(t.app)).idToken;
    const user = (await registerUser(t.app)).idToken;
    tokens = { user, admin };
    const minted = await t.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: bearer(user), payload: { name: 'fuzz', scope: 'write' } });
    expect(minted.statusCode, minted.body).toBe(200);
    apiToken = minted.json().token;
    const bookmark = await bookmarksClient(t.app, user).createIndexed({ title: 'Fuzz', link: 'https://example.org/fuzz' });
    const task = await t.app.inject({
      method: 'POST',
      url: '/schedule',
      headers: bearer(user),
      payload: { name: 'Fuzz', first_schedule_time: '2030-01-02T09:00:00Z' },
    });
    expect(task.statusCode, task.body).toBe(200);
    pathValues = {
      '/bookmarks/{id}': { id: String(bookmark.id) },
      '/api/bookmarks/{id}': { id: String(bookmark.id) },
      '/linkding/api/bookmarks/{id}/': { id: String(bookmark.id) },
      '/linkding/api/bookmarks/{id}/archive/': { id: String(bookmark.id) },
      '/linkding/api/bookmarks/{id}/unarchive/': { id: String(bookmark.id) },
      '/schedule/{id}': { id: task.json().id },
      '/auth/oidc/{provider}/start': { provider: 'google' },
      '/auth/oidc/{provider}/callback': { provider: 'google' },
    };
    document = (await t.app.inject({ url: '/api/openapi.json' })).json();
  });
  afterAll(async () => {
    await t.close();
    await drop();
  });

  it('reads the routes from the app, the ones of every feature among them', () => {
    const routes = routesTakingInput(document).map((route) => `${route.method} ${route.path}`);
    expect(routes).toEqual(
      expect.arrayContaining(['POST /auth/register', 'PUT /api/users/me', 'POST /api/bookmarks/query', 'PUT /schedule/{id}', 'GET /api/books', 'POST /api/books/index']),
    );
  });

  it('answers every hostile request below 500, each error as {statusCode, error, message}', async () => {
    const routes = routesTakingInput(document);
    const failures: string[] = [];
    let sent = 0;
    for (const [r, route] of routes.entries()) {
      const requests = hostileRequests(route, { pathValues, hints: HINTS, skipFields: ['password'], seed: SEED, randomPerField: 12 });
      // One address a route: a sign-in route's limit then stops its hashing after a few, as in production.
      await inParallel(requests, AT_ONCE, async (request, i) => {
        const problem = await problemWith(request, i % 2 === 0 ? tokens.user : tokens.admin, `10.0.${r}.1`);
        if (problem) failures.push(`${request.label}: ${problem}`);
      });
      sent += requests.length;
    }
    expect(sent).toBeGreaterThan(2000);
    expect(failures.sort()).toEqual([]);
    // A guard against a hang, not a budget: on a machine shared nine ways the requests took over two minutes.
  }, 600_000);

  /** What is wrong with the reply, if anything. */
  async function problemWith(request: HostileRequest, token: string, remoteAddress: string): Promise<string | undefined> {
    const response = await t.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: { ...(request.url.startsWith('/linkding/') ? { authorization: `Token ${apiToken}` } : bearer(token)), ...request.headers },
      payload: request.payload,
      remoteAddress,
    });
    if (response.statusCode >= 500) return `${response.statusCode} ${response.body.slice(0, 200)}`;
    if (response.statusCode < 400) return undefined;
    let body: unknown;
    try {
      body = response.json();
    } catch {
      return `${response.statusCode} with a body that is not JSON: ${response.body.slice(0, 200)}`;
    }
    const keys = Object.keys(body as object).sort();
    // Its routes answer in linkding's shapes; the router, before any route (a path too long), in ours.
    if (request.url.startsWith('/linkding/') && isLinkdingError(body)) return undefined;
    // Its routes answer in its shape; the router, before any route (a path too long), in ours.
    if (request.url.startsWith('/kosync/') && JSON.stringify(keys) === JSON.stringify(KOREADER_ERROR_KEYS)) {
      return typeof (body as { code: unknown }).code === 'number' ? undefined : `KOReader's error without a code: ${response.body.slice(0, 200)}`;
    }
    if (JSON.stringify(keys) !== JSON.stringify(ERROR_KEYS) || (body as { statusCode: unknown }).statusCode !== response.statusCode) {
      return `error body of another shape: ${response.body.slice(0, 200)}`;
    }
    return undefined;
  }
});
