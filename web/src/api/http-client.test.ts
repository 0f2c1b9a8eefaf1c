import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AuthReply } from '../../../contract/auth.ts';
import { ApiError } from './api-error.ts';
import { createHttpClient, type Session } from './http-client.ts';

const Thing = z.object({ value: z.number() });
const user = { uid: 'u1', email: 'ada@example.org', displayName: 'Ada', admin: false };

/** What the test server is told to do, and what it saw. */
function freshServerState() {
  return {
    validToken: 'token-1',
    refreshStatus: 200,
    /** Whether /api/thing accepts the tokens that a refresh issues. */
    acceptRefreshed: true,
    refreshCalls: 0,
    /** The token the refresh numbered `n` issues. */
    issue: (n: number) => `token-${n}`,
    thingCalls: 0,
    seenAuthorization: [] as (string | undefined)[],
  };
}

const server = freshServerState();

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function refuse(res: ServerResponse, status: number, message: string): void {
  reply(res, status, { statusCode: status, error: 'Refused', message });
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  server.seenAuthorization.push(req.headers.authorization);
  const route = `${req.method} ${req.url}`;
  if (route === 'POST /auth/refresh') {
    server.refreshCalls += 1;
    // Slow enough that concurrent 401s all arrive while this refresh is under way.
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (server.refreshStatus !== 200) return refuse(res, server.refreshStatus, 'Your session has ended');
    const issued = server.issue(server.refreshCalls + 1);
    if (server.acceptRefreshed) server.validToken = issued;
    return reply(res, 200, { idToken: issued, user });
  }
  if (route === 'GET /api/thing') {
    server.thingCalls += 1;
    if (req.headers.authorization !== `Bearer ${server.validToken}`) return refuse(res, 401, 'Token expired');
    return reply(res, 200, { value: 42 });
  }
  if (route === 'POST /auth/login') return refuse(res, 401, 'Wrong e-mail or password');
  if (route === 'GET /api/broken') return reply(res, 200, { value: 'forty-two' });
  if (route === 'GET /api/teapot') {
    res.writeHead(418, { 'content-type': 'text/plain' });
    return void res.end('short and stout');
  }
  if (route === 'PUT /api/echo') {
    return reply(res, 200, { contentType: req.headers['content-type'], body: JSON.parse(await readBody(req)) });
  }
  if (route === 'POST /api/upload') {
    return reply(res, 200, { contentType: req.headers['content-type'], body: await readBody(req) });
  }
  refuse(res, 404, 'Not found');
}

let http: Server;
let origin: string;

beforeAll(async () => {
  http = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('the test server has no port');
  origin = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
});

beforeEach(() => {
  Object.assign(server, freshServerState());
});

/** A session that starts with a token and records what the client tells it. */
class RecordingSession implements Session {
  current: string | null;
  signedInWith: AuthReply[] = [];
  signOuts = 0;

  constructor(token: string | null) {
    this.current = token;
  }

  token(): string | null {
    return this.current;
  }

  signedIn(reply: AuthReply): void {
    this.current = reply.idToken;
    this.signedInWith.push(reply);
  }

  signedOut(): void {
    this.current = null;
    this.signOuts += 1;
  }
}


describe('the API client', () => {
  it('sends the bearer token and parses the reply with the given schema', async () => {
    const session = new RecordingSession('token-1');
    const client = createHttpClient({ session, origin });

    await expect(client.json('/api/thing', Thing)).resolves.toEqual({ value: 42 });
    expect(server.seenAuthorization).toEqual(['Bearer token-1']);
    expect(server.refreshCalls).toBe(0);
  });

  it('refreshes the token on a 401, stores it and retries the call once', async () => {
    const session = new RecordingSession('expired');
    const client = createHttpClient({ session, origin });

    await expect(client.json('/api/thing', Thing)).resolves.toEqual({ value: 42 });
    expect(server.refreshCalls).toBe(1);
    expect(session.current).toBe('token-2');
    expect(session.signedInWith).toEqual([{ idToken: 'token-2', user }]);
    expect(server.seenAuthorization).toEqual(['Bearer expired', undefined, 'Bearer token-2']);
  });

  it('lets concurrent 401s share a single refresh', async () => {
    const session = new RecordingSession('expired');
    const client = createHttpClient({ session, origin });

    const replies = await Promise.all(Array.from({ length: 5 }, () => client.json('/api/thing', Thing)));

    expect(replies).toEqual(Array.from({ length: 5 }, () => ({ value: 42 })));
    expect(server.refreshCalls).toBe(1);
    expect(server.thingCalls).toBe(10);
  });

  it('retries with a token another call already renewed instead of refreshing again', async () => {
    const session = new RecordingSession('expired');
    const client = createHttpClient({ session, origin });
    await client.json('/api/thing', Thing);

    // A call that went out with the old token and came back after the refresh had finished.
    session.current = 'expired';
    const late = client.json('/api/thing', Thing);
    session.current = 'token-2';

    await expect(late).resolves.toEqual({ value: 42 });
    expect(server.refreshCalls).toBe(1);
  });

  it('signs out once when the refresh is refused, and every waiting call fails with its message', async () => {
    server.refreshStatus = 401;
    const session = new RecordingSession('expired');
    const client = createHttpClient({ session, origin });

    const calls = Array.from({ length: 3 }, () => client.json('/api/thing', Thing));

    for (const call of calls) await expect(call).rejects.toThrow('Your session has ended');
    expect(session.signOuts).toBe(1);
    expect(session.current).toBeNull();
    expect(server.refreshCalls).toBe(1);
  });

  it('keeps the session when the refresh fails for a reason other than the session', async () => {
    server.refreshStatus = 503;
    const session = new RecordingSession('expired');
    const client = createHttpClient({ session, origin });

    await expect(client.json('/api/thing', Thing)).rejects.toMatchObject({ status: 503 });
    expect(session.signOuts).toBe(0);
    expect(session.current).toBe('expired');
  });

  it('gives up after one retry when the renewed token is refused too', async () => {
    server.acceptRefreshed = false;
    const session = new RecordingSession('expired');
    const client = createHttpClient({ session, origin });

    const failure = await client.json('/api/thing', Thing).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 401, message: 'Token expired' });
    expect(server.refreshCalls).toBe(1);
    expect(server.thingCalls).toBe(2);
  });

  describe('with tokens that say when they expire', () => {
    const MINUTE = 60_000;
    /** A JWT-shaped token (header, claims, signature) whose claims say when it was issued and expires. */
    const jwt = (issuedAt: number, expiresAt: number, name: string) =>
      ['e30', Buffer.from(JSON.stringify({ iat: issuedAt / 1000, exp: expiresAt / 1000 })).toString('base64url'), name].join('.');
    /** What the server hands out on a refresh: a token good for 15 minutes from its own time. */
    const serverNow = Date.UTC(2026, 10, 28, 12);

    it('refreshes first when the token has expired, so no call is refused: concurrent calls share the one refresh', async () => {
      const stale = jwt(serverNow - 40 * MINUTE, serverNow - 25 * MINUTE, 'stale');
      server.validToken = 'token-2';
      const session = new RecordingSession(stale);
      const client = createHttpClient({ session, origin, now: () => serverNow });

      const replies = await Promise.all(Array.from({ length: 3 }, () => client.json('/api/thing', Thing)));

      expect(replies).toEqual(Array.from({ length: 3 }, () => ({ value: 42 })));
      expect(server.refreshCalls).toBe(1);
      expect(server.thingCalls).toBe(3);
      expect(server.seenAuthorization).toEqual([undefined, 'Bearer token-2', 'Bearer token-2', 'Bearer token-2']);
    });

    it('refreshes first when the token expires within half a minute, and not while it has longer', async () => {
      let clock = serverNow;
      const token = jwt(serverNow - 14 * MINUTE, serverNow + MINUTE, 'short');
      server.validToken = token;
      const session = new RecordingSession(token);
      const client = createHttpClient({ session, origin, now: () => clock });

      await client.json('/api/thing', Thing);
      expect(server.refreshCalls).toBe(0);
      clock += 31_000;
      server.validToken = 'token-2';
      await client.json('/api/thing', Thing);
      expect(server.refreshCalls).toBe(1);
      expect(server.seenAuthorization).toEqual([`Bearer ${token}`, undefined, 'Bearer token-2']);
    });

    it('renews a refreshed token by its life from its arrival, whatever the browser\'s clock says', async () => {
      // The browser's clock runs an hour ahead of the server's: by it, every new token is long expired.
      let clock = serverNow + 60 * MINUTE;
      server.issue = (n) => jwt(serverNow + n * MINUTE, serverNow + n * MINUTE + 15 * MINUTE, `fresh-${n}`);
      server.validToken = server.issue(2);
      const session = new RecordingSession(jwt(serverNow - 20 * MINUTE, serverNow - 5 * MINUTE, 'stale'));
      const client = createHttpClient({ session, origin, now: () => clock });

      await client.json('/api/thing', Thing);
      expect(server.refreshCalls).toBe(1);
      clock += 10 * MINUTE;
      await client.json('/api/thing', Thing);
      expect(server.refreshCalls).toBe(1);
      clock += 5 * MINUTE;
      server.validToken = server.issue(3);
      await client.json('/api/thing', Thing);
      expect(server.refreshCalls).toBe(2);
      expect(server.thingCalls).toBe(3);
    });
  });

  it('sends anonymous calls without a token and takes their 401 as the answer', async () => {
    const session = new RecordingSession('token-1');
    const client = createHttpClient({ session, origin });

    await expect(
      client.json('/auth/login', Thing, { method: 'POST', body: { email: 'a@b.c', password: 'x' }, anonymous: true }),
    ).rejects.toThrow('Wrong e-mail or password');
    expect(server.seenAuthorization).toEqual([undefined]);
    expect(server.refreshCalls).toBe(0);
    expect(session.signOuts).toBe(0);
  });

  it('names the status when an error reply is not the API error shape', async () => {
    const client = createHttpClient({ session: new RecordingSession('token-1'), origin });

    await expect(client.json('/api/teapot', Thing)).rejects.toThrow("The server answered 418 I'm a Teapot");
  });

  it('rejects a reply that does not match the schema', async () => {
    const client = createHttpClient({ session: new RecordingSession('token-1'), origin });

    await expect(client.json('/api/broken', Thing)).rejects.toThrow(/Unexpected reply to GET \/api\/broken/);
  });

  it('sends bodies as JSON', async () => {
    const client = createHttpClient({ session: new RecordingSession('token-1'), origin });
    const Echo = z.object({ contentType: z.string(), body: z.object({ timezone: z.string() }) });

    await expect(
      client.json('/api/echo', Echo, { method: 'PUT', body: { timezone: 'Europe/Paris' } }),
    ).resolves.toEqual({ contentType: 'application/json', body: { timezone: 'Europe/Paris' } });
  });

  it('sends a FormData as multipart, leaving its content type with the boundary to fetch', async () => {
    const client = createHttpClient({ session: new RecordingSession('token-1'), origin });
    const Echo = z.object({ contentType: z.string(), body: z.string() });
    const form = new FormData();
    form.append('name', 'update');
    form.append('file', new Blob(['{"id": "1"}'], { type: 'application/json' }), 'library.json');

    const echoed = await client.json('/api/upload', Echo, { method: 'POST', body: form });

    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(echoed.contentType)?.[1];
    expect(boundary).toBeDefined();
    expect(echoed.body).toContain(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nupdate\r\n`);
    expect(echoed.body).toContain(
      'name="file"; filename="library.json"\r\nContent-Type: application/json\r\n\r\n{"id": "1"}\r\n',
    );
  });
});
