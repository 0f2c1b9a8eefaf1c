import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '../../../../contract/users.ts';
import { createHttpClient } from '../../api/http-client.ts';
import { followProfileEvents } from './profile.events.ts';

const record = (timezone: string): UserRecord => ({
  uid: 'u1',
  displayName: 'Ada',
  email: 'ada@example.org',
  photo: null,
  timezone,
});

/** What each connection to the stream gets, in order; a connection past the list gets nothing and stays open. */
let scripts: ((res: ServerResponse) => void)[] = [];
let connections: { authorization: string | undefined }[] = [];

let http: Server;
let origin: string;

beforeAll(async () => {
  http = createServer((req, res) => {
    if (req.url !== '/api/users/me/events') return void res.writeHead(404).end();
    const script = scripts[connections.length];
    connections.push({ authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    script?.(res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('the test server has no port');
  origin = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

afterEach(() => {
  scripts = [];
  connections = [];
  vi.restoreAllMocks();
});

const client = () =>
  createHttpClient({
    origin,
    session: { token: () => 'token-1', signedIn: () => {}, signedOut: () => {} },
  });

function sendUser(res: ServerResponse, value: unknown): void {
  res.write(`event: user\ndata: ${JSON.stringify(value)}\n\n`);
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 3000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('following the profile stream', () => {
  it('hands on each user record, skipping pings, other events and bad data; reconnects when the stream ends', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    scripts = [
      (res) => {
        res.write(': ping\n\n');
        sendUser(res, record('Europe/London'));
        res.write('event: user\ndata: {"uid": \n\n');
        sendUser(res, { uid: 'u1' });
        res.write(`event: other\ndata: ${JSON.stringify(record('Asia/Tokyo'))}\n\n`);
        res.end();
      },
      (res) => {
        // One record split across two writes, as TCP may deliver it.
        const text = `event: user\ndata: ${JSON.stringify(record('America/New_York'))}\n\n`;
        res.write(text.slice(0, 20));
        setTimeout(() => res.write(text.slice(20)), 20);
      },
    ];
    const received: UserRecord[] = [];
    const stop = new AbortController();

    const following = followProfileEvents(client(), (r) => received.push(r), stop.signal, { retryDelayMs: 10 });
    await waitFor(() => received.length === 2);
    stop.abort();
    await following;

    expect(received.map((r) => r.timezone)).toEqual(['Europe/London', 'America/New_York']);
    expect(connections).toEqual([{ authorization: 'Bearer token-1' }, { authorization: 'Bearer token-1' }]);
  });

  it('reconnects when the stream goes silent for longer than the idle timeout', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    scripts = [() => {}, (res) => sendUser(res, record('Europe/Paris'))];
    const received: UserRecord[] = [];
    const stop = new AbortController();

    const following = followProfileEvents(client(), (r) => received.push(r), stop.signal, {
      retryDelayMs: 10,
      idleTimeoutMs: 100,
    });
    await waitFor(() => received.length === 1);
    stop.abort();
    await following;

    expect(received.map((r) => r.timezone)).toEqual(['Europe/Paris']);
    expect(connections).toHaveLength(2);
  });

  it('stops when aborted while connected', async () => {
    scripts = [(res) => sendUser(res, record('Europe/Berlin'))];
    const received: UserRecord[] = [];
    const stop = new AbortController();

    const following = followProfileEvents(client(), (r) => received.push(r), stop.signal, { retryDelayMs: 10 });
    await waitFor(() => received.length === 1);
    stop.abort();
    await following;
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(connections).toHaveLength(1);
  });
});
