import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../contract/errors.ts';
import { Task } from '../../contract/tasks.ts';
import { parseCalendar } from '../../server/src/test/calendar-parser.ts';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const ZONE = 'America/New_York';
const PASSWORD = 'a long enough password';
const DAY = 86_400_000;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const addressOf = (page: Page) => page.getByLabel('Calendar address');

/** Waits until the profile shows an address other than `previous`, and answers it. */
async function shownAddress(page: Page, previous: string | null = null): Promise<string> {
  const address = addressOf(page);
  await expect.poll(async () => ((await address.count()) === 1 ? address.inputValue() : previous), { timeout: 15_000 }).not.toBe(previous);
  return address.inputValue();
}

describe('calendar subscription, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: ZONE });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    page = await context.newPage();
    problems = (await watchForErrors(page)).problems;
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  it('turns the calendar on in the profile, serves the address a calendar parser reads, and makes a new one that revokes the old', async () => {
    const email = 'subscriber@example.org';
    const api = apiAs(server.baseUrl, await createAccount(server.baseUrl, { email, password: PASSWORD, displayName: 'Subscriber' }));
    expect((await api('/api/users/me', 'PUT', { timezone: ZONE })).status).toBe(200);
    const due = new Date(Math.ceil((Date.now() + DAY) / 60_000) * 60_000).toISOString();
    const created = await api('/schedule', 'POST', { name: 'Call the dentist', first_schedule_time: due, schedule_type: 'y', comment: 'Ask about Tuesday' });
    const task = Task.parse(await created.json());

    await signIn(page, { email, password: PASSWORD });
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Turn on calendar' }).click();
    const first = await shownAddress(page);
    expect(first).toMatch(new RegExp(`^${server.baseUrl}/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

    const served = await fetch(first);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const calendar = parseCalendar(await served.text());
    expect(calendar.timezones).toEqual([ZONE]);
    expect(calendar.events).toHaveLength(1);
    const [event] = calendar.events;
    expect(event?.summary).toBe('Call the dentist');
    expect(event?.start).toBe(due.replace('.000Z', 'Z'));
    expect(event?.description).toContain('Ask about Tuesday');
    expect(event?.url).toBe(`${server.baseUrl}/task/${task.id}`);
    const unchanged = await fetch(first, { headers: { 'if-none-match': served.headers.get('etag') ?? '' } });
    expect(unchanged.status).toBe(304);

    await page.getByRole('button', { name: 'Make a new one' }).click();
    await page.getByRole('dialog', { name: 'Make a new calendar address?' }).getByRole('button', { name: 'Make a new one' }).click();
    const second = await shownAddress(page, first);
    const revoked = await fetch(first);
    expect(revoked.status).toBe(404);
    expect(ErrorReply.parse(await revoked.json()).message).toBe('Calendar not found');
    const again = await fetch(second);
    expect(again.status).toBe(200);
    expect(parseCalendar(await again.text()).events.map((parsed) => parsed.uid)).toEqual([event?.uid]);

    // Only the hash is kept: after a reload the profile says the calendar is on, without the address.
    await page.reload();
    await page.getByText(/Your calendar is on/).waitFor();
    expect(await addressOf(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('dialog', { name: 'Turn the calendar off?' }).getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('button', { name: 'Turn on calendar' }).waitFor();
    expect((await fetch(second)).status).toBe(404);
  });
});
