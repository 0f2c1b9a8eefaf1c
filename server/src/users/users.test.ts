import { beforeEach, describe, expect, it } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { UserRecord, USER_EVENT } from '../../../contract/users.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';

/** Reads a live SSE stream from a listening server and collects each user record it carries. */
async function openUserStream(baseUrl: string, idToken: string) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/users/me/events`, {
    headers: bearer(idToken),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const records: UserRecord[] = [];
  const waiters: Array<() => void> = [];
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      if (event.event !== USER_EVENT) return;
      records.push(UserRecord.parse(JSON.parse(event.data)));
      waiters.splice(0).forEach((wake) => wake());
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted by close()
    }
  })();
  return {
    records,
    /** Resolves with the first record that passes `test`, or fails after `ms`. */
    async next(test: (record: UserRecord) => boolean, ms = 1000): Promise<UserRecord> {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = records.find(test);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching record within ${ms} ms; got ${JSON.stringify(records)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, left);
        });
      }
    },
    close: () => controller.abort(),
  };
}

describe.each(testDialects)('users on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let t: TestApp;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    return async () => {
      await t.close();
      await database.drop();
    };
  });

  it('serves the signed-in user record, timezone unset at first', async () => {
    const { idToken, user } = await registerUser(t.app, { email: 'ann@example.org', displayName: 'Ann' });
    const response = await t.app.inject({ url: '/api/users/me', headers: bearer(idToken) });
    expect(response.statusCode).toBe(200);
    expect(UserRecord.parse(response.json())).toEqual({
      uid: user.uid,
      displayName: 'Ann',
      email: 'ann@example.org',
      photo: null,
      timezone: null,
    });
  });

  it('changes the timezone to any IANA zone and refuses anything else unchanged', async () => {
    const { idToken } = await registerUser(t.app);
    const put = (payload: unknown) =>
      t.app.inject({ method: 'PUT', url: '/api/users/me', headers: bearer(idToken), payload: payload as object });
    expect((await put({ timezone: 'Asia/Kolkata' })).json().timezone).toBe('Asia/Kolkata');
    for (const bad of [{ timezone: 'Mars/Olympus_Mons' }, { timezone: '' }, { timezone: 5 }, { timezone: 'UTC', photo: 'https://example.org/me.png' }, {}]) {
      const response = await put(bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json().message).toMatch(/timezone|Unrecognized key/);
    }
    const after = await t.app.inject({ url: '/api/users/me', headers: bearer(idToken) });
    expect(after.json().timezone).toBe('Asia/Kolkata');
  });

  it('accepts every zone the runtime lists, and UTC again after another zone', async () => {
    const { idToken } = await registerUser(t.app);
    const put = (timezone: string) => t.app.inject({ method: 'PUT', url: '/api/users/me', headers: bearer(idToken), payload: { timezone } });
    const refused = [];
    for (const zone of [...Intl.supportedValuesOf('timeZone'), 'UTC', 'Europe/Paris', 'UTC']) {
      const response = await put(zone);
      if (response.statusCode !== 200 || response.json().timezone !== zone) refused.push(zone);
    }
    expect(refused).toEqual([]);
    expect((await t.app.inject({ url: '/api/users/me', headers: bearer(idToken) })).json().timezone).toBe('UTC');
  });

  it("one user's change reaches that user's open streams within a second, and no one else's", async () => {
    const ann = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const tabOne = await openUserStream(baseUrl, ann.idToken);
    const tabTwo = await openUserStream(baseUrl, ann.idToken);
    const bobTab = await openUserStream(baseUrl, bob.idToken);
    try {
      await tabTwo.next((record) => record.timezone === null);
      await bobTab.next((record) => record.uid === bob.user.uid);
      const put = await fetch(`${baseUrl}/api/users/me`, {
        method: 'PUT',
        headers: { ...bearer(ann.idToken), 'content-type': 'application/json' },
        body: JSON.stringify({ timezone: 'America/Los_Angeles' }),
      });
      expect(put.status).toBe(200);
      const seen = await tabTwo.next((record) => record.timezone === 'America/Los_Angeles');
      expect(seen.uid).toBe(ann.user.uid);
      await tabOne.next((record) => record.timezone === 'America/Los_Angeles');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(bobTab.records.map((record) => record.uid)).toEqual([bob.user.uid]);
    } finally {
      [tabOne, tabTwo, bobTab].forEach((tab) => tab.close());
    }
  });

  it('refuses the stream without a valid token', async () => {
    const response = await t.app.inject({ url: '/api/users/me/events', headers: bearer('nope') });
    expect(response.statusCode).toBe(401);
  });

  it.runIf(dialect === 'postgres')('carries a change made on one server instance to a stream on another', async () => {
    const second = await buildTestApp(database);
    try {
      const ann = await registerUser(t.app);
      const streamUrl = await second.app.listen({ port: 0, host: '127.0.0.1' });
      const tab = await openUserStream(streamUrl, ann.idToken);
      try {
        await tab.next((record) => record.timezone === null);
        const put = await t.app.inject({
          method: 'PUT',
          url: '/api/users/me',
          headers: bearer(ann.idToken),
          payload: { timezone: 'Europe/London' },
        });
        expect(put.statusCode).toBe(200);
        await tab.next((record) => record.timezone === 'Europe/London');
      } finally {
        tab.close();
      }
    } finally {
      await second.close();
    }
  });
});
