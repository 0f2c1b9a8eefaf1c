import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Bookmark } from '../../contract/bookmarks.ts';
import { Task } from '../../contract/tasks.ts';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

// Issue 12: errors that do not stay, messages in people's words, inline editors, the bookmark's link.

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

/** A new account in New York time, with a task and two indexed bookmarks made through the API. */
async function newAccount() {
  accounts += 1;
  const email = `writer${accounts}@example.org`;
  const idToken = await createAccount(server.baseUrl, { email, password: PASSWORD, displayName: `Writer ${accounts}` });
  const api = apiAs(server.baseUrl, idToken);
  expect((await api('/api/users/me', 'PUT', { timezone: ZONE })).status).toBe(200);
  const created = await api('/schedule/', 'POST', { name: 'Water the ferns', first_schedule_time: '2030-03-10T13:00:00Z', schedule_type: 'w' });
  expect(created.status).toBe(200);
  const task = Task.parse(await created.json());
  const bookmark = async (title: string, link: string) => {
    const made = Bookmark.parse(await (await api('/bookmarks/', 'POST', { title, link, tags: 'garden' })).json());
    expect((await api('/api/bookmarks/', 'POST', made)).status).toBe(200);
    return made;
  };
  const first = await bookmark('Ferns', `${server.baseUrl}/api/health`);
  const second = await bookmark('Mosses', 'https://mosses.example.org/');
  return { email, api, task, first, second };
}

const taskField = (page: Page, key: string) => page.locator(`dd[data-field="${key}"]`);
const operationError = (page: Page) => page.locator('.operation-error');

describe('forms and messages, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  /** The calls that would change something (every method but GET), as the browser sent them. */
  let changes: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: ZONE });
    page = await context.newPage();
    // Refusals the tests cause on purpose: 400 and 409 replies, and the index check's 404 of a missing bookmark.
    problems = (await watchForErrors(page, [/status of 40[0349]/])).problems;
    changes = [];
    page.on('request', (request: Request) => {
      if (request.method() !== 'GET' && !new URL(request.url()).pathname.startsWith('/auth/')) changes.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  /** Signs in and forgets the sign-in's own calls. */
  async function signInAs(email: string) {
    await signIn(page, { email, password: PASSWORD });
    changes.length = 0;
  }

  it('shows a server refusal with the field’s label, clears it on success, on another screen and after a reload', async () => {
    const { email, api, task } = await newAccount();
    await signInAs(email);
    await page.goto(`/task/${task.id}`);
    await page.getByRole('heading', { name: 'Water the ferns' }).waitFor();
    /**
     * Elsewhere (another tab, say) the task gets an earlier end than the page knows, so the page's
     * own check lets a due time after it through, and the server refuses it.
     */
    const refusedByServer = async (end: string, due: string) => {
      expect((await api(`/schedule/${task.id}`, 'PUT', { type: 'update', key: 'schedule_end_time', value: end })).status).toBe(200);
      changes.length = 0;
      await page.locator('#task-schedule_time').click();
      await page.locator('#task-schedule_time-input').fill(due);
      await page.locator('#task-schedule_time-input').press('Enter');
      await operationError(page).getByText('Due time must not be after the end time', { exact: true }).waitFor();
      expect(changes).toEqual([`PUT /schedule/${task.id}`]);
      await page.locator('#task-schedule_time-input').press('Escape');
    };

    await refusedByServer('2030-03-20T00:00:00Z', '2030-03-25T09:00');
    expect(await operationError(page).evaluate((element) => getComputedStyle(element).color)).toBe('rgb(220, 53, 69)');
    // Any success clears it.
    await page.locator('#task-name').click();
    await page.locator('#task-name-input').fill('Water the big ferns');
    await page.locator('#task-name-input').press('Enter');
    await page.getByRole('heading', { name: 'Water the big ferns' }).waitFor();
    expect(await operationError(page).count()).toBe(0);

    // Loads held back, so that what a screen shows before its own load succeeds can be seen.
    let held = false;
    await page.route(/\/schedule(\/|\?|$)/, async (route) => {
      if (held && route.request().method() === 'GET') await new Promise((resume) => setTimeout(resume, 1500));
      await route.fallback();
    });

    // Refused again, then the user goes to the list: the list does not show it, nor does the task on coming back.
    await refusedByServer('2030-03-18T00:00:00Z', '2030-03-19T09:00');
    held = true;
    await page.locator('#nav-tasks').click();
    await page.locator('#nav-task-list').click();
    await page.locator('section#task-list').waitFor();
    expect(await operationError(page).count()).toBe(0);
    await page.getByText('Found 1 active task', { exact: true }).waitFor();
    expect(await operationError(page).count()).toBe(0);
    held = false;
    await page.goBack();
    await page.getByRole('heading', { name: 'Water the big ferns' }).waitFor();
    expect(await operationError(page).count()).toBe(0);

    // Refused once more, and saved with the state (docs/behaviour/screens.md), then reloaded: gone.
    await refusedByServer('2030-03-16T00:00:00Z', '2030-03-17T09:00');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('organiser.state')), { timeout: 5000 }).toContain('Due time must not be after the end time');
    held = true;
    await page.reload();
    await page.locator('section#task-detail').waitFor();
    expect(await operationError(page).count()).toBe(0);
    await page.getByRole('heading', { name: 'Water the big ferns' }).waitFor();
    expect(await operationError(page).count()).toBe(0);
  });

  it('shows one message for a missing bookmark, and a bookmark’s refusal on no other screen', async () => {
    const { email, first, second } = await newAccount();
    await signInAs(email);
    await page.goto('/bookmark/999999');
    await page.getByText('No bookmark found with id 999999').waitFor();
    expect(await operationError(page).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(1);

    // A link the user already has: the server's 409, told in words, prefixed with the time (docs/behaviour/bad-input-and-limits.md).
    await page.goto(`/bookmark/${second.id}`);
    await page.locator('#bookmark-link-edit').click();
    await page.locator('#bookmark-link-input').fill(first.link);
    await page.locator('#bookmark-link-input').press('Enter');
    await operationError(page).getByText(/^\[\d{1,2}:\d{2}:\d{2}.*\] You already have a bookmark for this link$/).waitFor();
    expect(await page.getByText('No bookmark found').count()).toBe(0);
    await page.locator('#nav-bookmarks').click();
    await page.locator('#nav-bookmark-create').click();
    await page.waitForURL((url) => url.pathname === '/bookmark/create');
    await page.getByLabel('Title', { exact: true }).waitFor();
    expect(await operationError(page).count()).toBe(0);
    await page.goto('/bookmark');
    await page.getByText('Found 2 Bookmarks').waitFor();
    expect(await operationError(page).count()).toBe(0);
  });

  it('checks in the browser what it can, says why with the label, and sends nothing', async () => {
    const { email, task, first } = await newAccount();
    await signInAs(email);
    await page.goto(`/task/${task.id}`);
    await page.getByRole('heading', { name: 'Water the ferns' }).waitFor();
    const refusedIn = async (key: string, message: string) => {
      await taskField(page, key).getByText(message, { exact: true }).waitFor();
      await page.locator(`#task-${key}-input`).press('Escape');
    };

    await page.locator('#task-name').click();
    await page.locator('#task-name-input').fill('   ');
    await page.locator('#task-name-input').press('Enter');
    await refusedIn('name', 'Name is required');

    // Typed but not added, then Save: refused as Add would, not silently dropped.
    await page.locator('#task-notice_hours').click();
    await page.locator('#task-notice_hours-input').fill('24');
    await taskField(page, 'notice_hours').getByRole('button', { name: 'Save' }).click();
    await refusedIn('notice_hours', 'Notice hours are whole hours from 0 to 23');
    await page.locator('#task-notice_hours').click();
    await page.locator('#task-notice_hours-input').fill('7.5');
    await page.locator('#task-notice_hours-input').press('Enter');
    expect(await taskField(page, 'notice_hours').locator('li').count()).toBe(0);
    await refusedIn('notice_hours', 'Notice hours are whole hours from 0 to 23');

    await page.locator('#task-emails').click();
    await page.locator('#task-emails-input').fill('ada at example');
    await taskField(page, 'emails').getByRole('button', { name: 'Add' }).click();
    await refusedIn('emails', 'Enter e-mail addresses like ada@example.org');

    await page.locator('#task-schedule_end_time').click();
    await page.locator('#task-schedule_end_time-input').fill('2030-03-09T09:00');
    await page.locator('#task-schedule_end_time-input').press('Enter');
    await refusedIn('schedule_end_time', 'End time must not be before the due time');

    await page.locator('#task-schedule_time').click();
    await page.locator('#task-schedule_time-input').fill('');
    await taskField(page, 'schedule_time').getByRole('button', { name: 'Save' }).click();
    await refusedIn('schedule_time', 'Due time is required');
    expect(await operationError(page).count()).toBe(0);

    // The bookmark's required title, its link, and the search's date range.
    await page.goto(`/bookmark/${first.id}`);
    await page.locator('#bookmark-title-edit').click();
    await page.locator('#bookmark-title-input').fill('');
    await page.locator('#bookmark-title-input').press('Enter');
    await page.getByText('Title is required', { exact: true }).waitFor();
    await page.locator('#bookmark-title-input').press('Escape');
    await page.locator('#bookmark-link-edit').click();
    await page.locator('#bookmark-link-input').fill('mosses.example.org');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Link must be a web address starting with http:// or https://', { exact: true }).waitFor();

    await page.goto('/bookmark/create');
    await page.getByLabel('Title').fill('Lichens');
    await page.getByLabel('Link').fill('lichens.example.org');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Link must be a web address starting with http:// or https://', { exact: true }).waitFor();

    await page.goto('/bookmark/query');
    await page.getByLabel('Key words').fill('ferns');
    await page.getByRole('button', { name: 'Advanced Search Configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Advanced Search Configuration' });
    await dialog.getByLabel('create_date start').fill('2026-05-02T10:00');
    await dialog.getByLabel('create_date end').fill('2026-05-01T10:00');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Created until must not be before the start', { exact: true }).waitFor();

    expect(changes).toEqual([]);
  });

  it('edits in place: the editor takes the focus, Esc restores and saves nothing, Enter saves, a text area saves with Ctrl+Enter', async () => {
    const { email, api, task, first } = await newAccount();
    await signInAs(email);
    await page.goto(`/task/${task.id}`);
    await page.getByRole('heading', { name: 'Water the ferns' }).waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.id);

    await page.locator('#task-name').click();
    expect(await focused()).toBe('task-name-input');
    await page.keyboard.type(' by the window');
    await page.keyboard.press('Escape');
    expect(await page.locator('#task-name').innerText()).toBe('Water the ferns');
    expect(changes).toEqual([]);
    await page.locator('#task-name').click();
    expect(await page.locator('#task-name-input').inputValue()).toBe('Water the ferns');
    await page.keyboard.type(' by the window');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Water the ferns by the window' }).waitFor();
    expect(changes).toEqual([`PUT /schedule/${task.id}`]);

    await page.locator('#task-schedule_type').click();
    expect(await focused()).toBe('task-schedule_type-input');
    await page.locator('#task-schedule_type-input').selectOption('m');
    await page.keyboard.press('Enter');
    await page.locator('#task-schedule_type').getByText('Monthly').waitFor();

    await page.locator('#task-notice_hours').click();
    expect(await focused()).toBe('task-notice_hours-input');
    await page.keyboard.type('9');
    await page.keyboard.press('Enter'); // adds the hour
    await page.keyboard.type('17');
    await page.keyboard.press('Enter'); // adds the hour
    await page.keyboard.press('Enter'); // on an empty input: saves the list
    await page.locator('#task-notice_hours').getByText('9, 17').waitFor();

    await page.locator('#task-comment').click();
    expect(await focused()).toBe('task-comment-input');
    await page.keyboard.type('North window');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Rain water');
    await page.keyboard.press('Control+Enter');
    await page.locator('#task-comment').getByText('Rain water').waitFor();
    expect(Task.parse(await (await api(`/schedule/${task.id}`)).json())).toMatchObject({
      name: 'Water the ferns by the window',
      schedule_type: 'm',
      notice_hours: [9, 17],
      comment: 'North window\nRain water',
    });

    await page.goto(`/bookmark/${first.id}`);
    await page.locator('#bookmark-title-edit').click();
    expect(await focused()).toBe('bookmark-title-input');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Not this');
    await page.keyboard.press('Escape');
    expect(await page.locator('#bookmark-title').innerText()).toBe('Ferns');
    await page.locator('#bookmark-title-edit').click();
    await page.locator('#bookmark-title-input').fill('Royal ferns');
    await page.locator('#bookmark-title-input').press('Enter');
    await page.locator('#bookmark-title').getByText('Royal ferns').waitFor();
    expect(Bookmark.parse(await (await api(`/bookmarks/${first.id}`)).json()).title).toBe('Royal ferns');
  });

  it('shows the bookmark’s link as a link that opens in a new tab, and edits it with its own control', async () => {
    const { email, api, first } = await newAccount();
    await signInAs(email);
    await page.goto(`/bookmark/${first.id}`);
    const link = page.getByRole('link', { name: first.link });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(first.link);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect((await link.getAttribute('rel'))?.split(' ')).toContain('noopener');

    const opened = context.waitForEvent('page');
    await link.click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(first.link);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
    expect(page.url()).toBe(`${server.baseUrl}/bookmark/${first.id}`);
    expect(changes).toEqual([]);

    await page.getByRole('button', { name: 'Edit Link' }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('bookmark-link-input');
    const moved = `${server.baseUrl}/api/health?moved`;
    await page.locator('#bookmark-link-input').fill(moved);
    await page.locator('#bookmark-link-input').press('Enter');
    await page.getByRole('link', { name: moved }).waitFor();
    expect(await page.getByRole('link', { name: moved }).getAttribute('href')).toBe(moved);
    expect(Bookmark.parse(await (await api(`/bookmarks/${first.id}`)).json()).link).toBe(moved);
  });
});
