import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../app.ts';
import { manualClock } from '../test/manual-clock.ts';
import { multipart } from '../test/multipart.ts';
import { openConnection, timedGet, trickleBody } from '../test/raw-http.ts';
import { bearer, createTestDatabase, openTestStorage, registerUser, testConfig } from '../test/test-app.ts';
import type { HttpLimits } from './http-limits.ts';

/** The limits of http-limits.ts scaled down, so that each is seen acting in a second or two. */
const LIMITS: Partial<HttpLimits> = {
  headersMs: 1000,
  checkEveryMs: 200,
  bodyWindowMs: 500,
  minBytesPerWindow: 1024,
  bodyMs: 1500,
  keepAliveMs: 1000,
};
const MAX_CONNECTIONS = 20;

/** A real listening server, since the limits act on sockets that inject() does not have. */
describe('slow clients', () => {
  let port: number;
  let token: string;
  let close: () => Promise<void>;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    const database = await createTestDatabase('sqlite');
    const storage = await openTestStorage(database);
    app = await buildApp({
      config: testConfig(database, { MAX_CONNECTIONS: String(MAX_CONNECTIONS) }),
      storage,
      clock: manualClock(),
      startSearchWorkers: false,
      httpLimits: LIMITS,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    token = (await registerUser(app)).idToken;
    close = async () => {
      await app.close();
      await storage.close();
      await database.drop();
    };
  });
  afterAll(() => close());

  it('closes a body that trickles in a byte at a time with a 408 of the one shape, within a window or two', async () => {
    const connection = await trickleBody(port, '/auth/login', 100);
    const openMs = await connection.closed;
    expect(openMs).toBeLessThan(3 * LIMITS.bodyWindowMs!);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(connection.received().split('\r\n\r\n')[1]!)).toEqual({
      statusCode: 408,
      error: 'Request Timeout',
      message: 'The request body came too slowly',
    });
  });

  it('closes a body that keeps the pace but outlasts the body limit, on a route that is no upload', async () => {
    const connection = await openConnection(port);
    connection.send(`POST /bookmarks/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"title":"`);
    const timer = setInterval(() => connection.send('x'.repeat(2048)), 100);
    const openMs = await connection.closed;
    clearInterval(timer);
    expect(openMs).toBeGreaterThanOrEqual(LIMITS.bodyMs!);
    expect(openMs).toBeLessThan(LIMITS.bodyMs! + 2 * LIMITS.bodyWindowMs!);
  });

  it('lets an upload that keeps the pace take longer than the body limit', async () => {
    const file = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://example.org/slow">Slow upload</A>\n</DL>\n<!--${'x'.repeat(60_000)}-->\n`;
    const body = multipart([['file', file, 'bookmarks.html']]);
    const connection = await openConnection(port);
    connection.send(
      `POST /bookmarks/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\nConnection: close\r\n\r\n`,
    );
    const started = Date.now();
    for (let offset = 0; offset < body.payload.length; offset += 2048) {
      connection.socket.write(body.payload.subarray(offset, offset + 2048));
      await sleep(70);
    }
    await connection.closed;
    expect(Date.now() - started).toBeGreaterThan(LIMITS.bodyMs!);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('closes a body refused before it was read (401) once it trickles, rather than reading it for ever', async () => {
    const connection = await trickleBody(port, '/bookmarks/import', 100, { 'content-type': 'multipart/form-data; boundary=x' });
    const openMs = await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(openMs).toBeLessThan(3 * LIMITS.bodyWindowMs!);
  });

  it('closes a connection whose headers do not arrive in time, and one that sends nothing', async () => {
    const silent = await openConnection(port);
    const slowHeaders = await openConnection(port);
    slowHeaders.send('GET /api/health HTTP/1.1\r\n');
    const timer = setInterval(() => slowHeaders.send('X-Slow: 1\r\n'), 100);
    const [silentMs, slowMs] = await Promise.all([silent.closed, slowHeaders.closed]);
    clearInterval(timer);
    for (const ms of [silentMs, slowMs]) {
      expect(ms).toBeGreaterThanOrEqual(LIMITS.headersMs!);
      expect(ms).toBeLessThan(LIMITS.headersMs! + 3 * LIMITS.checkEveryMs!);
    }
  });

  it(`keeps at most ${MAX_CONNECTIONS} connections, closing the oldest idle ones, and health still answers`, async () => {
    const idle = await Promise.all(Array.from({ length: 3 * MAX_CONNECTIONS }, () => openConnection(port)));
    // The server closes the oldest as each new one arrives; a busy machine may take a while to see them all.
    const stillOpen = () => idle.filter((connection) => !connection.socket.destroyed && connection.socket.readyState === 'open').length;
    await expect.poll(stillOpen, { timeout: 10_000, interval: 50 }).toBeLessThanOrEqual(MAX_CONNECTIONS);
    // The newest survive: the oldest were closed to make room for them.
    expect(idle.at(-1)!.socket.destroyed).toBe(false);
    const health = await timedGet(port, '/api/health');
    expect(health.status).toBe(200);
    for (const connection of idle) connection.socket.destroy();
  });

  it('keeps serving requests at the cap: a connection busy with a request is never the one closed', async () => {
    const slow = await Promise.all(Array.from({ length: 2 * MAX_CONNECTIONS }, () => trickleBody(port, '/auth/login', 100)));
    const replies = await Promise.all(Array.from({ length: 5 }, () => timedGet(port, '/api/health')));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
    for (const connection of slow) connection.socket.destroy();
  });

  it('watches neither requests without a body nor injected ones (no socket to close), long as they last', async () => {
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'a@example.org', password: 'x' } })).statusCode).toBe(401);
    await sleep(LIMITS.bodyMs! + 2 * LIMITS.bodyWindowMs!);
  });

  it('serves a request whose body arrives at once, and signs in as usual', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/users/me`, { headers: bearer(token) });
    expect(response.status).toBe(200);
  });
});
