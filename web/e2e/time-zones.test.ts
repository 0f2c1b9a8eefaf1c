import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { apiAs, chooseTimezone, chosenTimezone, createAccount, signIn, timezoneOptions, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const PASSWORD = 'a long enough password';

let server: RunningServer;
let browser: Browser;
let accounts = 0;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newAccount() {
  accounts += 1;
  const email = `traveller${accounts}@example.org`;
  const idToken = await createAccount(server.baseUrl, { email, password: PASSWORD, displayName: `Traveller ${accounts}` });
  return { email, api: apiAs(server.baseUrl, idToken) };
}

/** The zone stored on the server, as the API answers it. */
async function storedZone(api: ReturnType<typeof apiAs>): Promise<string | null> {
  return ((await (await api('/api/users/me')).json()) as { timezone: string | null }).timezone;
}

/** An option's zone: the US zones' labels carry it in brackets. */
const zoneOf = (label: string) => /\(([^)]+)\)$/.exec(label)?.[1] ?? label;

describe('time zones, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: 'Europe/Berlin' });
    page = await context.newPage();
    problems = (await watchForErrors(page)).problems;
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  it('chooses UTC again after another zone, saves it and shows it after a reload', async () => {
    const { email, api } = await newAccount();
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/profile');
    await expect.poll(() => chosenTimezone(page)).toBe('Europe/Berlin');

    await chooseTimezone(page, 'UTC');
    await expect.poll(() => storedZone(api)).toBe('UTC');
    await chooseTimezone(page, 'tokyo', 'Asia/Tokyo');
    await expect.poll(() => storedZone(api)).toBe('Asia/Tokyo');
    await chooseTimezone(page, 'utc', 'UTC');
    await expect.poll(() => storedZone(api)).toBe('UTC');
    expect(await page.locator('.timezone__single-value').innerText()).toBe('UTC');

    await page.reload();
    await expect.poll(() => chosenTimezone(page)).toBe('UTC');
    expect(await page.locator('.timezone__single-value').innerText()).toBe('UTC');
  });

  it("offers every zone of the browser and UTC, each once, US zones first, and each one the server accepts", async () => {
    const { email, api } = await newAccount();
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/profile');
    await expect.poll(() => chosenTimezone(page)).toBe('Europe/Berlin');

    const labels = await timezoneOptions(page);
    expect(labels.slice(0, 3)).toEqual(['US East (America/New_York)', 'US West (America/Los_Angeles)', 'UTC']);
    const offered = labels.map(zoneOf);
    const known = await page.evaluate(() => Intl.supportedValuesOf('timeZone'));
    expect(new Set(offered).size).toBe(offered.length);
    expect(offered.toSorted()).toEqual([...known, 'UTC'].toSorted());

    const refused = [];
    for (const zone of offered) {
      if ((await api('/api/users/me', 'PUT', { timezone: zone })).status !== 200) refused.push(zone);
    }
    expect(refused).toEqual([]);
  });

  it('finds zones by any part of their name as the user types', async () => {
    const { email } = await newAccount();
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/profile');
    const options = page.locator('.timezone__option');

    await page.getByLabel('Timezone').fill('new york');
    await expect.poll(() => options.allInnerTexts()).toEqual(['US East (America/New_York)']);
    // Browsers list Kolkata under its older name; its current one finds it.
    await page.getByLabel('Timezone').fill('KOLK');
    await expect.poll(() => options.allInnerTexts()).toEqual(['Asia/Calcutta']);
    await page.getByLabel('Timezone').fill('europe/pa');
    await expect.poll(() => options.allInnerTexts()).toEqual(['Europe/Paris']);
    await page.getByLabel('Timezone').fill('no such place');
    await page.getByText('No such timezone').waitFor();
  });

  it('shows a zone the browser does not list, set through the API, as the one chosen', async () => {
    const { email, api } = await newAccount();
    expect((await api('/api/users/me', 'PUT', { timezone: 'Asia/Calcutta' })).status).toBe(200);
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/profile');
    await expect.poll(() => chosenTimezone(page)).toBe('Asia/Calcutta');
    expect(await page.locator('.timezone__single-value').innerText()).toBe('Asia/Calcutta');
  });

  it('says on task create and task detail which zone the times are in', async () => {
    const { email, api } = await newAccount();
    expect((await api('/api/users/me', 'PUT', { timezone: 'Asia/Tokyo' })).status).toBe(200);
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/task/create');
    const note = page.locator('#task-zone');
    await expect.poll(() => note.innerText()).toBe("Times are in Asia/Tokyo, the timezone of your profile (change)");

    await page.getByPlaceholder('Task name').fill('Call home');
    await page.getByLabel('First due').fill('2030-03-06T09:00');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/task\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Call home' }).waitFor();
    expect(await note.innerText()).toBe('Times are in Asia/Tokyo, the timezone of your profile (change)');
    expect(await page.locator('dd[data-field="schedule_time"]').innerText()).toBe('2030-03-06 09:00 GMT+9');

    // A change of zone elsewhere shows at once, and the times with it.
    expect((await api('/api/users/me', 'PUT', { timezone: 'UTC' })).status).toBe(200);
    await expect.poll(() => note.innerText()).toBe('Times are in UTC, the timezone of your profile (change)');
    expect(await page.locator('dd[data-field="schedule_time"]').innerText()).toBe('2030-03-06 00:00 UTC');

    await note.getByRole('link', { name: '(change)' }).click();
    await page.waitForURL('**/profile');
  });
});
