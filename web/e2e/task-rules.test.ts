import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const ZONE = 'America/New_York';
const PASSWORD = 'a long enough password';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('repeat rules and checklists, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: ZONE });
    page = await context.newPage();
    problems = (await watchForErrors(page)).problems;
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  it('creates a task every 2 weeks on Monday and Thursday, shows it in words, and keeps a checklist that Complete unticks', async () => {
    const email = 'rules@example.org';
    const idToken = await createAccount(server.baseUrl, { email, password: PASSWORD, displayName: 'Rules' });
    expect((await apiAs(server.baseUrl, idToken)('/api/users/me', 'PUT', { timezone: ZONE })).status).toBe(200);
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/task/create');
    await page.getByPlaceholder('Task name').fill('Bins out');
    // A Wednesday: the rule's first day is the Thursday after.
    await page.getByLabel('First due').fill('2030-03-06T09:00');
    await page.getByLabel('Repeats').selectOption({ label: 'Custom rule' });
    await page.locator('#task-rule-interval').fill('2');
    await page.getByLabel('Monday').check();
    await page.getByLabel('Thursday').check();
    await page.getByLabel('Wednesday').uncheck();
    await expect.poll(() => page.locator('#task-rule-words').innerText()).toBe('Every 2 weeks on Monday and Thursday');
    expect(await page.locator('#task-rule-rule').inputValue()).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/task\/[0-9a-f-]{36}$/);

    const field = (key: string) => page.locator(`dd[data-field="${key}"]`);
    await page.getByRole('heading', { name: 'Bins out' }).waitFor();
    expect(await field('rrule').innerText()).toBe('Every 2 weeks on Monday and Thursday');
    expect(await field('schedule_type').innerText()).toBe('Custom rule');
    expect(await field('schedule_time').innerText()).toBe('2030-03-07 09:00 EST');

    await page.getByLabel('New checklist item').fill('Paper');
    await page.locator('#task-checklist').getByRole('button', { name: 'Add' }).click();
    await page.getByLabel('Paper', { exact: true }).waitFor();
    await page.getByLabel('New checklist item').fill('Glass');
    await page.locator('#task-checklist').getByRole('button', { name: 'Add' }).click();
    await page.getByLabel('Glass', { exact: true }).waitFor();
    // The box shows what the server kept: ticked once its answer is back, not at the click.
    await page.getByLabel('Paper', { exact: true }).click();
    await expect.poll(() => page.getByLabel('Paper', { exact: true }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Remove Glass' }).click();
    await expect.poll(() => page.locator('.task-checklist-item').count()).toBe(1);

    await page.getByRole('button', { name: 'Complete' }).click();
    // Two weeks on from the week of the 7th: Monday the 18th (after the spring change, so EDT).
    await expect.poll(() => field('schedule_time').innerText(), { timeout: 15_000 }).toBe('2030-03-18 09:00 EDT');
    expect(await page.getByLabel('Paper', { exact: true }).isChecked()).toBe(false);
    await page.locator('#task-history').getByText('1 of 1 ticked: Paper').waitFor();
  });
});
