import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TasksExport } from '../../contract/tasks.ts';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, submitLogin, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const PASSWORD = 'a long enough password';
/** A refused call is logged by the browser as a failed resource; the pages report such refusals on purpose. */
const REFUSALS = [/status of 40[0139]/];

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

/** A new account, and calls made with the token of its sign-up (a session of its own, whose device is "node"). */
async function newAccount() {
  accounts += 1;
  const account = { email: `account${accounts}@example.org`, password: PASSWORD, displayName: `Account ${accounts}` };
  return { ...account, api: apiAs(server.baseUrl, await createAccount(server.baseUrl, account)) };
}

/** A browser of its own (cookies and storage apart), signed in, and what its page did wrong. */
async function signedInBrowser(account: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  const watch = await watchForErrors(page, REFUSALS);
  await signIn(page, account);
  return { context, page, problems: watch.problems };
}

const sessionRows = (page: Page) => page.locator('#profile-sessions tr.user-session');

describe('the profile’s sessions, end to end', () => {
  const contexts: BrowserContext[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  it('lists the sessions, signs one out, then every other; the other browser’s next request lands on the login page', async () => {
    const account = await newAccount();
    const first = await signedInBrowser(account);
    const second = await signedInBrowser(account);
    contexts.push(first.context, second.context);

    await first.page.goto('/profile');
    await expect.poll(() => sessionRows(first.page).count()).toBe(3);
    const current = sessionRows(first.page).filter({ hasText: 'this device' });
    expect(await current.count()).toBe(1);
    expect(await current.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    expect(await current.innerText()).toContain('127.0.0.1');

    // The sign-up's session, made by Node's fetch: signed out on its own, its token refused at once.
    await sessionRows(first.page).filter({ hasText: 'node' }).getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => sessionRows(first.page).count()).toBe(2);
    expect((await account.api('/api/users/me')).status).toBe(401);

    await first.page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect.poll(() => sessionRows(first.page).count()).toBe(1);
    expect(await first.page.getByRole('button', { name: 'Sign out everywhere else' }).isDisabled()).toBe(true);

    await second.page.getByRole('link', { name: 'Profile' }).click();
    await second.page.waitForURL((url) => url.pathname === '/login');

    // The first browser is still signed in.
    await first.page.reload();
    await expect.poll(() => sessionRows(first.page).count()).toBe(1);
    expect(first.page.url()).toMatch(/\/profile$/);
    expect(first.problems).toEqual([]);
    expect(second.problems).toEqual([]);
  });
});

describe('changing the password, end to end', () => {
  it('refuses a wrong current password, then changes it: the other browser lands on the login page, the new password signs in', async () => {
    const account = await newAccount();
    const first = await signedInBrowser(account);
    const second = await signedInBrowser(account);
    try {
      await first.page.goto('/profile');
      const form = first.page.getByRole('form', { name: 'Change password' });
      await form.getByLabel('Current password').fill('not the password');
      await form.getByLabel('New password').fill('a brand new passphrase');
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => form.getByRole('alert').innerText()).toBe('current: the current password is wrong');

      await form.getByLabel('Current password').fill(PASSWORD);
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => form.getByRole('alert').innerText()).toBe('Password changed; 2 other sessions were signed out.');
      expect(await form.getByLabel('New password').inputValue()).toBe('');
      await expect.poll(() => sessionRows(first.page).count()).toBe(1);

      await second.page.getByRole('link', { name: 'Profile' }).click();
      await second.page.waitForURL((url) => url.pathname === '/login');
      await submitLogin(second.page, account);
      await expect.poll(() => second.page.getByRole('alert').innerText()).toBe('Wrong e-mail or password');
      // Signed in again, it goes back to the page it asked for.
      await submitLogin(second.page, { email: account.email, password: 'a brand new passphrase' });
      await second.page.waitForURL((url) => url.pathname === '/profile');
      expect(first.problems).toEqual([]);
      expect(second.problems).toEqual([]);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  it('ends every API token, app password and the calendar address too when its box is ticked', async () => {
    const account = await newAccount();
    const { token } = (await (await account.api('/api/users/me/tokens', 'POST', { name: 'script', scope: 'write' })).json()) as { token: string };
    const { password } = (await (await account.api('/api/users/me/app-passwords', 'POST', { name: 'e-reader' })).json()) as { password: string };
    const eReader = { authorization: `Basic ${Buffer.from(`${account.email}:${password}`).toString('base64')}` };
    expect((await fetch(`${server.baseUrl}/bookmarks/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/opds`, { headers: eReader })).status).toBe(200);

    const first = await signedInBrowser(account);
    try {
      await first.page.goto('/profile');
      const form = first.page.getByRole('form', { name: 'Change password' });
      await form.getByLabel('Current password').fill(PASSWORD);
      await form.getByLabel('New password').fill('a brand new passphrase');
      await form.getByLabel('Also end every API token, app password and the calendar subscription').check();
      await form.getByRole('button', { name: 'Change password' }).click();
      await expect
        .poll(() => form.getByRole('alert').innerText())
        .toBe('Password changed; 1 other session was signed out. API tokens, app passwords and the calendar address were ended.');
      expect(await form.getByLabel('Also end every API token, app password and the calendar subscription').isChecked()).toBe(false);
      expect((await fetch(`${server.baseUrl}/bookmarks/`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
      expect((await fetch(`${server.baseUrl}/opds`, { headers: eReader })).status).toBe(401);
      expect(first.problems).toEqual([]);
    } finally {
      await first.context.close();
    }
  });
});

describe('deleting one’s account, end to end', () => {
  it('saves the bookmarks and tasks, asks for the e-mail, deletes the account with its data, and lands on the login page, signed out', async () => {
    // The installation's first account administers it and could not go; this test deletes another.
    await newAccount();
    const account = await newAccount();
    expect((await account.api('/bookmarks/', 'POST', { title: 'Kept nowhere', link: 'https://example.org/gone' })).status).toBe(200);
    expect((await account.api('/schedule/', 'POST', { name: 'Kept nowhere either', first_schedule_time: '2030-01-01T08:00Z' })).status).toBe(200);
    const { context, page, problems } = await signedInBrowser(account);
    try {
      await page.goto('/profile');
      const exports = page.getByRole('group', { name: 'Export my data first' });
      const saved = async (button: string) => {
        const [download] = await Promise.all([page.waitForEvent('download'), exports.getByRole('button', { name: button }).click()]);
        return { name: download.suggestedFilename(), text: (await readFile((await download.path())!)).toString() };
      };
      const bookmarksFile = await saved('Bookmarks (browser file)');
      expect(bookmarksFile.name).toBe('bookmarks.html');
      expect(bookmarksFile.text).toContain('<A HREF="https://example.org/gone"');
      const tasksFile = await saved('Tasks (JSON)');
      expect(tasksFile.name).toBe('tasks.json');
      expect(TasksExport.parse(JSON.parse(tasksFile.text)).tasks.map((task) => task.name)).toEqual(['Kept nowhere either']);

      await page.locator('#profile-delete').getByRole('button', { name: 'Delete my account…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete my account' });
      const confirm = dialog.getByRole('button', { name: 'Delete my account' });
      await dialog.getByLabel('Your e-mail').fill('someone@example.org');
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel('Your e-mail').fill(` ${account.email.toUpperCase()}`);
      await confirm.click();
      await page.waitForURL((url) => url.pathname === '/login');

      expect((await account.api('/bookmarks/')).status).toBe(401);
      await page.goto('/profile');
      await page.waitForURL((url) => url.pathname === '/login');
      await submitLogin(page, account);
      await expect.poll(() => page.getByRole('alert').innerText()).toBe('Wrong e-mail or password');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('changing one’s name and e-mail, end to end', () => {
  it('edits each in place, refuses an e-mail in use, and shows and signs in with the new ones at once', async () => {
    const taken = await newAccount();
    const account = await newAccount();
    const { context, page, problems } = await signedInBrowser(account);
    try {
      await page.goto('/profile');
      await page.getByRole('button', { name: account.displayName }).click();
      const name = page.locator('#profile-name').getByRole('textbox', { name: 'Name' });
      await name.fill('  Renamed Person ');
      await name.press('Enter');
      await expect.poll(() => page.locator('#profile-name').innerText()).toBe('Renamed Person');

      await page.getByRole('button', { name: account.email }).click();
      const email = page.locator('#profile-email').getByRole('textbox', { name: 'E-mail' });
      await email.fill(taken.email);
      await email.press('Enter');
      await expect.poll(() => page.locator('#profile-email').getByRole('alert').innerText()).toBe('An account with this e-mail already exists');
      await email.fill('Renamed@Example.org');
      await email.press('Enter');
      await expect.poll(() => page.locator('#profile-email').innerText()).toBe('renamed@example.org');
      // The bearer token was renewed: its claims name the new e-mail and name.
      const claims = () =>
        page.evaluate(() => {
          const token = (JSON.parse(localStorage.getItem('organiser.state') ?? '{}') as { auth?: { idToken?: string } }).auth?.idToken ?? '';
          return JSON.parse(atob(token.split('.')[1]!.replaceAll('-', '+').replaceAll('_', '/'))) as { email: string; name: string };
        });
      await expect.poll(async () => (await claims()).email).toBe('renamed@example.org');
      expect((await claims()).name).toBe('Renamed Person');

      // The delete dialog asks for the new e-mail, and the page after a reload shows both.
      await page.locator('#profile-delete').getByRole('button', { name: 'Delete my account…' }).click();
      expect(await page.getByRole('dialog', { name: 'Delete my account' }).innerText()).toContain('renamed@example.org');
      await page.reload();
      await expect.poll(() => page.locator('#profile-name').innerText()).toBe('Renamed Person');
      expect(await page.locator('#profile-email').innerText()).toBe('renamed@example.org');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    const again = await signedInBrowser({ email: 'renamed@example.org', password: account.password });
    await again.context.close();
  });
});
