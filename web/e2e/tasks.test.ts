import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Task } from '../../contract/tasks.ts';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const ZONE = 'America/New_York';
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

/** A new account in New York time, and its bearer token for calls made outside the browser. */
async function newAccount() {
  accounts += 1;
  const email = `planner${accounts}@example.org`;
  const idToken = await createAccount(server.baseUrl, { email, password: PASSWORD, displayName: `Planner ${accounts}` });
  const api = apiAs(server.baseUrl, idToken);
  expect((await api('/api/users/me', 'PUT', { timezone: ZONE })).status).toBe(200);
  return { email, api };
}

const field = (page: Page, key: string) => page.locator(`dd[data-field="${key}"]`);

/** Waits until a field, back from its editor, shows `text`. */
async function shows(page: Page, key: string, text: string) {
  const value = page.locator(`button#task-${key}`);
  await expect.poll(async () => ((await value.count()) === 1 ? value.innerText() : null), { timeout: 15_000 }).toBe(text);
}

/** Opens a click-to-edit field, lets `edit` change it, and saves. */
async function editField(page: Page, key: string, edit: (input: ReturnType<Page['locator']>) => Promise<void>) {
  await page.locator(`#task-${key}`).click();
  await edit(page.locator(`#task-${key}-input`));
  await field(page, key).getByRole('button', { name: 'Save' }).click();
}

describe('tasks, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: ZONE });
    page = await context.newPage();
    // The refused notice hour is a 400 the page reports on purpose; the missing task a 404.
    problems = (await watchForErrors(page, [/status of 40[04]|could not be/])).problems;
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  it('creates a task, edits every field, completes it, and shows the unknown one as not found', async () => {
    const { email, api } = await newAccount();
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/task/create');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('task name is required').waitFor();
    await page.getByText('Event time is required').waitFor();

    await page.getByPlaceholder('Task name').fill('Water the plants');
    await page.getByLabel('First due').fill('2030-03-06T09:00');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/task\/[0-9a-f-]{36}$/);
    const id = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByRole('heading', { name: 'Water the plants' }).waitFor();
    expect(await field(page, 'schedule_time').innerText()).toBe('2030-03-06 09:00 EST');
    expect(await field(page, 'schedule_type').innerText()).toBe('Daily');
    expect(await field(page, 'is-active').innerText()).toBe('yes');

    await editField(page, 'name', (input) => input.fill('Water the ferns'));
    await page.getByRole('heading', { name: 'Water the ferns' }).waitFor();
    await page.locator('#task-name').click();
    await page.locator('#task-name-input').fill('Never saved');
    await field(page, 'name').getByRole('button', { name: 'Cancel' }).click();
    expect(await field(page, 'name').innerText()).toBe('Water the ferns');

    await editField(page, 'schedule_end_time', (input) => input.fill('2030-03-20T18:00'));
    await shows(page, 'schedule_end_time', '2030-03-20 18:00 EDT');
    await page.locator('#task-schedule_type').click();
    expect(await page.locator('#task-schedule_type-input option').allInnerTexts()).toEqual([
      'Does not repeat', 'Yearly', 'Quarterly', 'Monthly', 'Bi-Weekly', 'Weekly', 'Daily',
    ]);
    await page.locator('#task-schedule_type-input').selectOption('w');
    await field(page, 'schedule_type').getByRole('button', { name: 'Save' }).click();
    await shows(page, 'schedule_type', 'Weekly');
    await editField(page, 'schedule_time', (input) => input.fill('2030-03-10T09:00'));
    await shows(page, 'schedule_time', '2030-03-10 09:00 EDT');
    // Snoozed before the notice rules change, which leave it where it was put.
    await editField(page, 'next_notice_time', (input) => input.fill('2030-03-10T12:30'));
    await shows(page, 'next_notice_time', '2030-03-10 12:30 EDT');

    // With no recipient of its own, a task's notices go to its owner.
    await shows(page, 'emails', `${email} (your address)`);
    await editField(page, 'emails', async (input) => {
      for (const address of ['', 'ann@example.org', 'bob@example.org']) {
        await input.fill(address);
        await field(page, 'emails').getByRole('button', { name: 'Add' }).click();
      }
    });
    await shows(page, 'emails', 'ann@example.org, bob@example.org');

    await editField(page, 'notice_hours', async (input) => {
      for (const hour of ['9.5', 'nine', '17', '9']) {
        await input.fill(hour);
        await field(page, 'notice_hours').getByRole('button', { name: 'Add' }).click();
      }
      expect((await field(page, 'notice_hours').locator('li').allInnerTexts()).map((item) => item.trim())).toEqual(['17', '9']);
    });
    await shows(page, 'notice_hours', '9, 17');
    expect(await page.locator('#task-notice-hours-note').innerText()).toBe('If not done, remind me again at 9:00 and 17:00');
    await page.locator('#task-notice_in_workday').click();
    await page.locator('#task-notice_in_workday-input').selectOption('yes');
    await field(page, 'notice-in-workday').getByRole('button', { name: 'Save' }).click();
    await shows(page, 'notice_in_workday', 'yes');
    expect(await page.locator('#task-notice-hours-note').innerText()).toBe('If not done, remind me again at 9:00 and 17:00, on workdays');

    // An hour out of range is refused with the reason before anything is sent, and the editor stays open.
    await editField(page, 'notice_hours', async (input) => {
      await input.fill('30');
      await field(page, 'notice_hours').getByRole('button', { name: 'Add' }).click();
    });
    await field(page, 'notice_hours').getByText('Notice hours are whole hours from 0 to 23').waitFor();
    await field(page, 'notice_hours').getByRole('button', { name: 'Cancel' }).click();
    const operationError = page.locator('#task-operation-error');

    await editField(page, 'comment', (input) => input.fill('The ferns\nby the window'));
    await shows(page, 'comment', 'The ferns\nby the window');
    await shows(page, 'next_notice_time', '2030-03-10 12:30 EDT');
    expect(await operationError.count()).toBe(0);
    for (const [label, text] of [['overdue-notice', 'yes'], ['first-schedule-time', '2030-03-06 09:00 EST']]) {
      expect(await field(page, label!).innerText()).toBe(text);
    }

    const stored = Task.parse(await (await api(`/schedule/${id}`)).json());
    expect(stored).toMatchObject({
      name: 'Water the ferns',
      schedule_type: 'w',
      schedule_time: '2030-03-10T13:00:00.000Z',
      schedule_end_time: '2030-03-20T22:00:00.000Z',
      next_notice_time: '2030-03-10T16:30:00.000Z',
      emails: ['ann@example.org', 'bob@example.org'],
      notice_hours: [9, 17],
      notice_in_workday: true,
      comment: 'The ferns\nby the window',
    });

    // Weekly from March 10: the 17th, then the 24th would pass the end on the 20th.
    await page.getByRole('button', { name: 'Complete' }).click();
    await shows(page, 'schedule_time', '2030-03-17 09:00 EDT');
    await page.getByRole('button', { name: 'Complete' }).click();
    await field(page, 'is-active').getByText('no').waitFor();
    expect(await page.getByRole('button', { name: 'Complete' }).count()).toBe(0);

    await page.goto('/task/no-such-task');
    await page.getByRole('heading', { name: 'No task found with id no-such-task' }).waitFor();
  });

  it('lists active tasks soonest first, five at a time, with Get More', async () => {
    const { email, api } = await newAccount();
    for (const day of [7, 3, 5, 1, 6, 2, 4]) {
      const created = await api('/schedule', 'POST', { name: `Day ${day}`, first_schedule_time: `2030-06-0${day}T13:00:00Z` });
      expect(created.status).toBe(200);
    }
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/task');
    await page.getByRole('heading', { name: 'Found 5 active tasks' }).waitFor();
    const items = page.locator('.task-item');
    expect(await items.locator('.fw-semibold').allInnerTexts()).toEqual(['Day 1', 'Day 2', 'Day 3', 'Day 4', 'Day 5']);
    expect(await items.first().innerText()).toBe('Day 1\nDue time: 2030-06-01 09:00 EDT\nPending notice: 2030-06-01 09:00 EDT');

    await page.getByRole('button', { name: 'Get More' }).click();
    await page.getByRole('heading', { name: 'Found 7 active tasks' }).waitFor();
    expect(await items.locator('.fw-semibold').allInnerTexts()).toEqual(['Day 1', 'Day 2', 'Day 3', 'Day 4', 'Day 5', 'Day 6', 'Day 7']);
    expect(await page.getByRole('button', { name: 'Get More' }).count()).toBe(0);

    await items.nth(6).click();
    await page.waitForURL(/\/task\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Day 7' }).waitFor();
  });

  it('says so when there is no task', async () => {
    const { email } = await newAccount();
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/task');
    await page.getByRole('heading', { name: 'No task found' }).waitFor();
    await page.getByRole('link', { name: 'New task' }).click();
    await page.waitForURL(/\/task\/create$/);
  });

  it('creates a one-off task, ticks it done from the list, and shows it under Done with a repeating task\'s occurrence', async () => {
    const { email, api } = await newAccount();
    expect((await api('/schedule', 'POST', { name: 'Pay the bills', first_schedule_time: '2020-01-06T14:00:00Z' })).status).toBe(200);
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/task');
    await page.getByRole('heading', { name: 'Found 1 active task', exact: true }).waitFor();
    const overdue = page.locator('.task-item', { hasText: 'Pay the bills' }).locator('.task-overdue');
    expect(await overdue.innerText()).toMatch(/^Due time: 2020-01-06 09:00 EST \(overdue\)$/);
    expect(await overdue.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(220, 53, 69)');

    await page.getByRole('link', { name: 'New task' }).click();
    await page.getByPlaceholder('Task name').fill('Renew the passport');
    await page.getByLabel('First due').fill('2030-04-01T10:00');
    // Daily unless another is chosen, as the create call's own default.
    expect(await page.getByLabel('Repeats').inputValue()).toBe('d');
    await page.getByLabel('Repeats').selectOption({ label: 'Does not repeat' });
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/task\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Renew the passport' }).waitFor();
    expect(await field(page, 'schedule_type').innerText()).toBe('Does not repeat');
    expect(await field(page, 'schedule_end_time').count()).toBe(0);

    await page.goto('/task');
    await page.getByRole('heading', { name: 'Found 2 active tasks' }).waitFor();
    await page.getByRole('checkbox', { name: 'Complete Renew the passport' }).click();
    await page.getByRole('heading', { name: 'Found 1 active task', exact: true }).waitFor();
    // A repeating task ticked moves on to its next occurrence, which is not overdue.
    await page.getByRole('checkbox', { name: 'Complete Pay the bills' }).click();
    await expect.poll(() => page.locator('.task-overdue').count()).toBe(0);
    expect(await page.locator('.task-item .fw-semibold').allInnerTexts()).toEqual(['Pay the bills']);

    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await page.getByRole('heading', { name: 'Found 2 done tasks' }).waitFor();
    const entries = page.locator('.task-done-item');
    expect((await entries.allInnerTexts()).map((text) => [text.split('\n')[0], text.split('\n')[2]])).toEqual([
      ['Pay the bills', 'Due time: 2020-01-06 09:00 EST'],
      ['Renew the passport', 'Due time: 2030-04-01 10:00 EDT'],
    ]);
    await entries.nth(1).click();
    await page.getByRole('heading', { name: 'Renew the passport' }).waitFor();
    expect(await field(page, 'is-active').innerText()).toBe('no');
    // The history comes in its own request after the task: wait for it rather than count at once.
    await expect.poll(() => page.locator('#task-history .task-completion').count()).toBe(1);
  });

  it('keeps each Complete in the task\'s history, finds a finished task under Done, and deletes it after asking', async () => {
    const { email, api } = await newAccount();
    const course = Task.parse(
      await (
        await api('/schedule', 'POST', { name: 'Pottery course', first_schedule_time: '2030-03-04T23:00:00Z', schedule_type: 'w', schedule_end_time: '2030-03-12T00:00:00Z' })
      ).json(),
    );
    expect((await api('/schedule', 'POST', { name: 'Still going', first_schedule_time: '2030-03-05T13:00:00Z' })).status).toBe(200);
    await signIn(page, { email, password: PASSWORD });

    await page.goto(`/task/${course.id}`);
    await page.getByRole('heading', { name: 'Pottery course' }).waitFor();
    await page.locator('#task-history').getByText('Not completed yet').waitFor();
    await page.getByRole('button', { name: 'Complete' }).click();
    await shows(page, 'schedule_time', '2030-03-11 18:00 EDT');
    await page.getByRole('button', { name: 'Complete' }).click();
    await field(page, 'is-active').getByText('no').waitFor();
    const rows = page.locator('#task-history .task-completion');
    await expect.poll(() => rows.count()).toBe(2);
    expect((await rows.allInnerTexts()).map((row) => row.split('\t')[1])).toEqual(['2030-03-11 18:00 EDT', '2030-03-04 18:00 EST']);

    await page.goto('/task');
    await page.getByRole('heading', { name: 'Found 1 active task', exact: true }).waitFor();
    expect(await page.locator('.task-item .fw-semibold').allInnerTexts()).toEqual(['Still going']);
    // Done lists each occurrence completed, the latest first.
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await page.getByRole('heading', { name: 'Found 2 done tasks' }).waitFor();
    expect(await page.locator('.task-item .fw-semibold').allInnerTexts()).toEqual(['Pottery course', 'Pottery course']);
    await page.getByRole('button', { name: 'All', exact: true }).click();
    await page.getByRole('heading', { name: 'Found 2 tasks' }).waitFor();
    expect(await page.locator('.task-item .fw-semibold').allInnerTexts()).toEqual(['Still going', 'Pottery coursedone']);
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await page.getByRole('heading', { name: 'Found 2 done tasks' }).waitFor();

    await page.locator('.task-item').first().click();
    await page.getByRole('heading', { name: 'Pottery course' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this task?' });
    await dialog.getByText('“Pottery course”, its pending notices and its history will be deleted.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await api(`/schedule/${course.id}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(/\/task$/);
    await page.getByRole('heading', { name: 'No task found' }).waitFor();
    expect((await api(`/schedule/${course.id}`)).status).toBe(404);
  });
});
