import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushDevice, PushNotice, VapidPublicKey } from '../../../contract/notify.ts';
import { Task } from '../../../contract/tasks.ts';
import { manualClock } from '../test/manual-clock.ts';
import { type Ntfy, type PushService, startNtfy, startPushService } from '../test/notice-stand-ins.ts';
import { browserKeys, verifyVapid } from '../test/web-push-receiver.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, type TestDatabase, testDialects } from '../test/test-app.ts';
import { startTestSmtp, type TestSmtp } from '../test/test-smtp.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const PUBLIC_URL = 'https://organiser.example.org';
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testDialects)('notices by Web Push and ntfy on %s', (dialect) => {
  let database: TestDatabase & { drop(): Promise<void> };
  let smtp: TestSmtp;
  let pushService: PushService;
  let ntfy: Ntfy;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    smtp = await startTestSmtp();
    pushService = await startPushService();
    ntfy = await startNtfy();
    t = await buildTestApp(database, {
      // The stand-ins listen on loopback, which the server reaches only with this setting.
      env: { ALLOW_SIGNUP: 'true', SMTP_URL: smtp.url, PUBLIC_URL, PREVIEW_ALLOW_PRIVATE: 'true' },
      clock: manualClock(Date.UTC(2026, 3, 6, 8)),
      pushServiceCa: pushService.ca,
    });
    await t.app.ready();
    return async () => {
      await t.close();
      await Promise.all([smtp.close(), pushService.close(), ntfy.close()]);
      await database.drop();
    };
  });
  afterAll(() => {
    pushService.setDecision(() => 201);
    ntfy.setDecision(() => 200);
  });

  async function advanceTo(target: number) {
    await t.settled();
    t.clock.advance(Math.max(0, target - t.clock.now()));
    await t.settled();
  }

  const user = async () => {
    const { user: me, password } = await registerUser(t.app);
    // Signs in again each time: the test clock outruns a bearer token.
    const auth = async () => {
      const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: me.email, password } });
      expect(login.statusCode, login.body).toBe(200);
      return bearer((login.json() as { idToken: string }).idToken);
    };
    return { auth, email: me.email };
  };
  type User = Awaited<ReturnType<typeof user>>;

  const call = async (who: User, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: await who.auth(), ...(payload === undefined ? {} : { payload: payload as object }) });

  const subscribe = async (who: User, name: string) => {
    const browser = browserKeys();
    const response = await call(who, 'POST', '/api/notify/push-subscriptions', { endpoint: `${pushService.origin}/push/${name}`, expirationTime: null, keys: browser.keys });
    expect(response.statusCode, response.body).toBe(201);
    return { ...browser, device: PushDevice.parse(response.json()) };
  };

  const createTask = async (who: User, body: Record<string, unknown>) => {
    const response = await call(who, 'POST', '/schedule', body);
    expect(response.statusCode, response.body).toBe(200);
    await t.settled();
    return Task.parse(response.json());
  };
  const getTask = async (who: User, id: string) => Task.parse((await call(who, 'GET', `/schedule/${id}`)).json());
  const pushesTo = (name: string) => pushService.received.filter((one) => one.path === `/push/${name}`);
  const ntfyPosts = (topic: string) => ntfy.received.filter((one) => one.path === `/${topic}`);
  const mailsOf = (subject: string) => smtp.received.filter((mail) => mail.subject === subject);

  it('keeps devices and an ntfy topic per user, refusing bad input and other users\' devices', async () => {
    const owner = await user();
    const other = await user();
    const key = VapidPublicKey.parse((await call(owner, 'GET', '/api/notify/vapid-public-key')).json());
    expect(Buffer.from(key.public_key, 'base64url')).toHaveLength(65);
    expect((await t.app.inject({ url: '/api/notify/vapid-public-key' })).statusCode).toBe(401);

    const { keys } = browserKeys();
    for (const bad of [
      { endpoint: `http://127.0.0.1/push/plain`, keys },
      { endpoint: 'not a url', keys },
      { endpoint: `${pushService.origin}/push/x`, keys: { ...keys, p256dh: keys.auth } },
      { endpoint: `${pushService.origin}/push/x`, keys: { ...keys, auth: keys.p256dh } },
      { endpoint: `${pushService.origin}/push/x` },
    ]) {
      expect((await call(owner, 'POST', '/api/notify/push-subscriptions', bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    const phone = await subscribe(owner, 'owner-phone');
    const again = await subscribe(owner, 'owner-phone');
    expect(again.device.id).toBe(phone.device.id);
    await subscribe(owner, 'owner-laptop');
    expect((await call(owner, 'GET', '/api/notify/push-subscriptions')).json()).toHaveLength(2);
    expect((await call(other, 'GET', '/api/notify/push-subscriptions')).json()).toEqual([]);
    expect((await call(other, 'DELETE', `/api/notify/push-subscriptions/${phone.device.id}`)).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', `/api/notify/push-subscriptions/${phone.device.id}`)).statusCode).toBe(204);
    expect((await call(owner, 'DELETE', `/api/notify/push-subscriptions/${phone.device.id}`)).statusCode).toBe(404);
    expect((await call(owner, 'GET', '/api/notify/push-subscriptions')).json()).toHaveLength(1);
    for (let device = 1; device <= 20; device += 1) await subscribe(other, `other-${device}`);
    const over = await call(other, 'POST', '/api/notify/push-subscriptions', { endpoint: `${pushService.origin}/push/other-21`, keys });
    expect(over.statusCode).toBe(409);
    // A device already there is renewed, not counted again.
    expect((await call(other, 'POST', '/api/notify/push-subscriptions', { endpoint: `${pushService.origin}/push/other-5`, keys })).statusCode).toBe(201);
    expect((await call(other, 'GET', '/api/notify/push-subscriptions')).json()).toHaveLength(20);

    for (const url of ['ftp://example.org/topic', 'javascript:alert(1)', 'topic', 42]) {
      expect((await call(owner, 'PUT', '/api/notify/ntfy', { url })).statusCode, String(url)).toBe(400);
    }
    expect((await call(owner, 'POST', '/api/notify/ntfy/test')).statusCode).toBe(409);
    const topic = `${ntfy.origin}/owner-topic`;
    expect((await call(owner, 'PUT', '/api/notify/ntfy', { url: topic })).json()).toEqual({ url: topic });
    expect((await call(other, 'GET', '/api/notify/ntfy')).json()).toEqual({ url: null });
    expect((await call(owner, 'POST', '/api/notify/ntfy/test')).statusCode).toBe(204);
    const test = ntfyPosts('owner-topic').at(-1)!;
    expect(test.headers.title).toBe('Organiser test notice');
    expect(test.headers.actions).toBeUndefined();
    ntfy.setDecision(() => 403);
    const refused = await call(owner, 'POST', '/api/notify/ntfy/test');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ message: expect.stringContaining('HTTP 403') as unknown });
    ntfy.setDecision(() => 200);
    expect((await call(owner, 'PUT', '/api/notify/ntfy', { url: null })).json()).toEqual({ url: null });
    expect((await call(owner, 'GET', '/api/notify/ntfy')).json()).toEqual({ url: null });
  });

  it('sends a due notice to the owner\'s devices and ntfy topic with a Done that completes that occurrence once', async () => {
    const owner = await user();
    const phone = await subscribe(owner, 'done-phone');
    expect((await call(owner, 'PUT', '/api/notify/ntfy', { url: `${ntfy.origin}/done-topic` })).statusCode).toBe(200);
    const vapid = VapidPublicKey.parse((await call(owner, 'GET', '/api/notify/vapid-public-key')).json());
    const due = t.clock.now() + HOUR;
    const task = await createTask(owner, { name: 'Water the ferns ✿', first_schedule_time: iso(due), comment: 'The big one too', emails: ['house@example.org'] });

    await advanceTo(due - MINUTE);
    expect(pushesTo('done-phone')).toHaveLength(0);
    await advanceTo(due);
    expect(mailsOf('Task due: Water the ferns ✿').length + mailsOf('=?UTF-8?Q?Task_due=3A_Water_the_ferns_=E2=9C=BF?=').length).toBe(1);
    const [request] = pushesTo('done-phone');
    expect(request!.headers['content-encoding']).toBe('aes128gcm');
    await expect(verifyVapid(request!.headers, 'https://elsewhere.example')).rejects.toThrow();
    expect(Number(request!.headers.ttl)).toBeGreaterThan(0);
    const { claims, publicKey } = await verifyVapid(request!.headers, pushService.origin);
    expect(publicKey).toBe(vapid.public_key);
    expect(claims.sub).toBe(PUBLIC_URL);
    const notice = PushNotice.parse(JSON.parse(phone.decrypt(request!.body)));
    expect(notice).toMatchObject({ title: 'Water the ferns ✿', url: `${PUBLIC_URL}/task/${task.id}`, tag: `task-${task.id}` });
    expect(notice.body).toBe('Due: Monday 6 April 2026, 09:00 (UTC)\nThe big one too');
    expect(notice.done_url).toMatch(new RegExp(`^${PUBLIC_URL}/api/notify/done/[A-Za-z0-9_-]{43}$`));

    const [posted] = ntfyPosts('done-topic');
    expect(posted!.headers.title).toBe(`=?UTF-8?B?${Buffer.from('Water the ferns ✿').toString('base64')}?=`);
    expect(posted!.headers.click).toBe(`${PUBLIC_URL}/task/${task.id}`);
    expect(posted!.headers.actions).toBe(`http, Done, ${notice.done_url}, method=POST, clear=true`);
    expect(posted!.body.toString('utf8')).toBe(notice.body);

    const donePath = new URL(notice.done_url).pathname;
    const done = await t.app.inject({ method: 'POST', url: donePath });
    expect(done.statusCode, done.body).toBe(204);
    const after = await getTask(owner, task.id);
    expect(Date.parse(after.schedule_time)).toBeGreaterThan(due);
    const completions = (await call(owner, 'GET', `/schedule/${task.id}/completions`)).json() as Array<{ due_time: string }>;
    expect(completions.map((one) => one.due_time)).toEqual([iso(due)]);
    expect((await t.app.inject({ method: 'POST', url: donePath })).statusCode).toBe(410);
    expect((await getTask(owner, task.id)).schedule_time).toBe(after.schedule_time);
    expect((await t.app.inject({ method: 'POST', url: `/api/notify/done/${'A'.repeat(43)}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/notify/done/short' })).statusCode).toBe(404);
  });

  it('refuses a Done for an occurrence the task has moved on from, and changes nothing', async () => {
    const owner = await user();
    const phone = await subscribe(owner, 'moved-phone');
    const due = t.clock.now() + HOUR;
    const task = await createTask(owner, { name: 'Moved on', first_schedule_time: iso(due), comment: 'Long. '.repeat(1600) });
    await advanceTo(due);
    const notice = PushNotice.parse(JSON.parse(phone.decrypt(pushesTo('moved-phone')[0]!.body)));
    // A push carries about 4 KB: a long comment is cut, the task's page has it whole.
    expect(notice.body.length).toBeLessThanOrEqual(600);
    expect(notice.body.length).toBeGreaterThan(590);
    expect(notice.body).toMatch(/^Due: [^\n]*\nLong\. Long\. .*\S…$/s);
    const completed = await call(owner, 'PUT', `/schedule/${task.id}`, { type: 'complete' });
    expect(completed.statusCode).toBe(200);
    const before = await getTask(owner, task.id);
    const refused = await t.app.inject({ method: 'POST', url: new URL(notice.done_url).pathname });
    expect(refused.statusCode).toBe(409);
    expect(await getTask(owner, task.id)).toEqual(before);
    expect((await call(owner, 'GET', `/schedule/${task.id}/completions`)).json()).toHaveLength(1);
  });

  it('forgets a device its push service says is gone, and retries only the channels that failed', async () => {
    const owner = await user();
    await subscribe(owner, 'gone-phone');
    await subscribe(owner, 'kept-laptop');
    expect((await call(owner, 'PUT', '/api/notify/ntfy', { url: `${ntfy.origin}/flaky-topic` })).statusCode).toBe(200);
    pushService.setDecision((request) => (request.path === '/push/gone-phone' ? 410 : 201));
    ntfy.setDecision((request) => (request.path === '/flaky-topic' ? 503 : 200));
    const due = t.clock.now() + HOUR;
    const task = await createTask(owner, { name: 'Flaky channels', first_schedule_time: iso(due), overdue_notice: false });

    await advanceTo(due);
    expect(pushesTo('gone-phone')).toHaveLength(1);
    expect(pushesTo('kept-laptop')).toHaveLength(1);
    expect(ntfyPosts('flaky-topic')).toHaveLength(1);
    expect(mailsOf('Task due: Flaky channels')).toHaveLength(1);
    expect((await call(owner, 'GET', '/api/notify/push-subscriptions')).json()).toEqual([
      expect.objectContaining({ endpoint: `${pushService.origin}/push/kept-laptop` }),
    ]);
    expect((await getTask(owner, task.id)).notice_error).toMatch(/not sent \(attempt 1\): ntfy at 127\.0\.0\.1:\d+ failed: HTTP 503$/);

    // The first retry, a minute on: only ntfy is sent again, and it goes through this time.
    ntfy.setDecision(() => 200);
    await advanceTo(due + MINUTE);
    expect(ntfyPosts('flaky-topic')).toHaveLength(2);
    expect(pushesTo('kept-laptop')).toHaveLength(1);
    expect(pushesTo('gone-phone')).toHaveLength(1);
    expect(mailsOf('Task due: Flaky channels')).toHaveLength(1);
    expect((await getTask(owner, task.id)).notice_error).toBeNull();
    await advanceTo(due + 3 * HOUR);
    expect(ntfyPosts('flaky-topic')).toHaveLength(2);
  });
});
