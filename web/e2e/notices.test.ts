import type { Browser, BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PushNotice } from '../../contract/notify.ts';
import { Task } from '../../contract/tasks.ts';
import { type Ntfy, startNtfy } from '../../server/src/test/notice-stand-ins.ts';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const PASSWORD = 'a long enough password';
const DAY = 86_400_000;
/** What Chromium says when a page subscribes to push in a browser context of its own, as every test's is. */
const NO_PUSH_IN_INCOGNITO = /does not support the Push API in incognito mode/;

/** The console's line for the ntfy topic the server refuses (400) on purpose. */
const REFUSED_TOPIC = /status of 400/;

let server: RunningServer;
let browser: Browser;
let ntfy: Ntfy;

beforeAll(async () => {
  ntfy = await startNtfy();
  // The ntfy stand-in listens on loopback, which the server posts to only with this setting.
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true', PREVIEW_ALLOW_PRIVATE: 'true' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await ntfy?.close();
});

/** The app's service worker, once a page of the app has registered it. */
async function noticeWorker(context: BrowserContext): Promise<Worker> {
  const isOurs = (worker: Worker) => worker.url().endsWith('/notice-worker.js');
  return context.serviceWorkers().find(isOurs) ?? context.waitForEvent('serviceworker', { predicate: isOurs, timeout: 15_000 });
}

type ShownNotice = { title: string; body: string; tag: string; actions: string[]; data: unknown };

/** The notifications the worker shows now. */
const shown = (worker: Worker): Promise<ShownNotice[]> =>
  worker.evaluate(async () => {
    const scope = globalThis as unknown as { registration: ServiceWorkerRegistration };
    const notifications = await scope.registration.getNotifications();
    return notifications.map((one) => ({
      title: one.title,
      body: one.body,
      tag: one.tag,
      actions: (Reflect.get(one, 'actions') as Array<{ title: string }>).map((action) => action.title),
      data: one.data as unknown,
    }));
  });

/**
 * A message from the page to the worker: an event the browser itself delivers, which starts the
 * worker's idle time again. The events made here are not the browser's, so they do not; on a busy
 * machine the worker was stopped in the middle of a Done (its idle limit is 30 s).
 */
async function keepAwake(page: Page): Promise<void> {
  await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.postMessage('awake'));
}

/**
 * Dispatches a push event in the worker, as the browser does when a push message arrives (headless
 * Chromium has no push service to deliver a real one), and waits until the notice shows.
 */
async function push(page: Page, worker: Worker, notice: PushNotice): Promise<void> {
  // Sent again until it shows: a notice of the same tag takes the place of the one before, and on
  // a busy machine the worker may have been stopped and started between a dispatch and its notice.
  await expect
    .poll(async () => {
      await keepAwake(page);
      await worker.evaluate((payload) => {
        const PushEvent = Reflect.get(globalThis, 'PushEvent') as new (type: string, init: { data: string }) => Event;
        try {
          globalThis.dispatchEvent(new PushEvent('push', { data: payload }));
        } catch {
          // waitUntil refuses an event the page made; the notice is shown all the same.
        }
      }, JSON.stringify(notice));
      return (await shown(worker)).some((one) => one.tag === notice.tag);
    })
    .toBe(true);
}

/** A click on the shown notice with `tag`, on its Done action or (`''`) on the notice itself. */
async function click(page: Page, worker: Worker, tag: string, action: 'done' | ''): Promise<void> {
  await keepAwake(page);
  await worker.evaluate(
    async ({ tag: wanted, action: chosen }) => {
      const scope = globalThis as unknown as { registration: ServiceWorkerRegistration };
      const [notification] = await scope.registration.getNotifications({ tag: wanted });
      const NotificationEvent = Reflect.get(globalThis, 'NotificationEvent') as new (type: string, init: object) => Event;
      try {
        globalThis.dispatchEvent(new NotificationEvent('notificationclick', { notification, action: chosen }));
      } catch {
        // As above: waitUntil refuses it, the handler has run.
      }
    },
    { tag, action },
  );
}

/**
 * Pushes `notice` and clicks it until `outcome` holds, three times at most. An event the test makes
 * is not the browser's and does not keep the worker alive while it is handled: on a busy machine
 * one click in a few runs came to nothing (CI, 2026-11-29), where a person would click again.
 */
async function pushAndClick(page: Page, worker: Worker, notice: PushNotice, action: 'done' | '', outcome: () => Promise<boolean>) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await push(page, worker, notice);
    await click(page, worker, notice.tag, action);
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      if (await outcome()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`a click on "${action || 'the notice'}" did not lead to its outcome in three tries`);
}

describe('push notices in the installed app, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl });
    await context.grantPermissions(['notifications'], { origin: server.baseUrl });
    page = await context.newPage();
    problems = (await watchForErrors(page, [NO_PUSH_IN_INCOGNITO, REFUSED_TOPIC])).problems;
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  it('registers its worker, which shows a push notice with Done, completes through its link, and opens the task on a click', async () => {
    const email = 'pushed@example.org';
    const api = apiAs(server.baseUrl, await createAccount(server.baseUrl, { email, password: PASSWORD, displayName: 'Pushed' }));
    const task = Task.parse(await (await api('/schedule', 'POST', { name: 'Feed the cat', first_schedule_time: new Date(Date.now() + DAY).toISOString() })).json());
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/profile');
    const worker = await noticeWorker(context);

    // Chromium refuses a subscription here; the profile says so, and keeps no device.
    await page.getByRole('button', { name: 'Get push notices on this device' }).click();
    await expect.poll(() => page.locator('#notices-error').innerText()).toMatch(/\S/);
    expect(await (await api('/api/notify/push-subscriptions')).json()).toEqual([]);

    const doneCalls: string[] = [];
    let doneAnswer = 204;
    await context.route('**/api/notify/done/**', async (route) => {
      doneCalls.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      await route.fulfill({ status: doneAnswer });
    });
    const taskUrl = `${server.baseUrl}/task/${task.id}`;
    const notice: PushNotice = {
      title: 'Feed the cat',
      body: 'Due: tomorrow',
      url: taskUrl,
      done_url: `${server.baseUrl}/api/notify/done/${'a'.repeat(43)}`,
      tag: `task-${task.id}`,
    };
    await push(page, worker, notice);
    expect((await shown(worker)).find((one) => one.tag === notice.tag)).toEqual({
      title: 'Feed the cat',
      body: 'Due: tomorrow',
      tag: notice.tag,
      actions: ['Done'],
      data: { url: taskUrl, doneUrl: notice.done_url },
    });
    const noticeNow = async () => (await shown(worker)).find((one) => one.tag === notice.tag);

    // Done posts to the notice's link and closes the notice.
    await pushAndClick(page, worker, notice, 'done', async () => doneCalls.length > 0 && !(await noticeNow()));
    const donePost = `POST /api/notify/done/${'a'.repeat(43)}`;
    expect(new Set(doneCalls)).toEqual(new Set([donePost]));

    // Refused (the task moved on): the worker says so in a notice of its own.
    doneAnswer = 409;
    const postsBefore = doneCalls.length;
    await pushAndClick(page, worker, notice, 'done', async () => (await noticeNow())?.title === 'Not done: Feed the cat');
    expect((await noticeNow())?.body).toMatch(/moved on/);
    expect(doneCalls.length).toBeGreaterThan(postsBefore);

    // A click on the notice itself opens the task in the app's window, and posts nothing.
    const postsAfter = doneCalls.length;
    await pushAndClick(page, worker, notice, '', async () => page.url() === taskUrl);
    expect(new Set(doneCalls)).toEqual(new Set([donePost]));
    expect(doneCalls).toHaveLength(postsAfter);
  });

  it('keeps an ntfy topic in the profile and sends a test to it', async () => {
    const email = 'ntfy@example.org';
    await createAccount(server.baseUrl, { email, password: PASSWORD, displayName: 'Ntfy' });
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/profile');
    const topic = `${ntfy.origin}/profile-topic`;
    await page.getByLabel('Topic address').fill('ftp://example.org/topic');
    await page.locator('#ntfy-save').click();
    await expect.poll(() => page.locator('#notices-error').innerText()).toContain('http or https');
    await page.getByLabel('Topic address').fill(topic);
    await page.locator('#ntfy-save').click();
    await page.getByRole('button', { name: 'Send a test' }).click();
    await expect.poll(() => page.locator('#ntfy-tested').count()).toBe(1);
    expect(ntfy.received.map((one) => [one.path, one.headers.title])).toEqual([['/profile-topic', 'Organiser test notice']]);
    await page.reload();
    await expect.poll(() => page.getByLabel('Topic address').inputValue()).toBe(topic);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => page.getByLabel('Topic address').inputValue()).toBe('');
    await expect.poll(() => page.getByRole('button', { name: 'Send a test' }).count()).toBe(0);
  });
});
