import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

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

const titles = (page: Page) => page.locator('article.bookmark-card h3 a[target="_blank"]').allInnerTexts();
const heading = (page: Page) => page.getByRole('heading', { level: 2 });

/** Read later (issue 39): the Unread list, and a card's "Mark read". */
describe('the Unread list, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl });
    page = await context.newPage();
    problems = (await watchForErrors(page)).problems;
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  it('a bookmark marked read leaves the Unread list and shows in All, read', async () => {
    const email = 'unread@example.org';
    const api = apiAs(server.baseUrl, await createAccount(server.baseUrl, { email, password: PASSWORD, displayName: 'Unread' }));
    for (const [title, link] of [
      ['First article', 'https://one.example.org/'],
      ['Second article', 'https://two.example.org/'],
    ]) {
      expect((await api('/bookmarks/', 'POST', { title, link })).status).toBe(200);
    }
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/bookmark');
    await page.locator('#bookmark-state-tabs').getByRole('link', { name: 'Unread' }).click();
    await page.waitForURL(/\/bookmark\?state=unread$/);
    await heading(page).getByText('Found 2 Bookmarks').waitFor();
    expect(await titles(page)).toEqual(['Second article', 'First article']);

    await page.getByRole('button', { name: 'Mark read: Second article' }).click();
    await heading(page).getByText('Found 1 Bookmarks').waitFor();
    expect(await titles(page)).toEqual(['First article']);

    // Loaded again from the server, the list is the same: the state was kept.
    await page.reload();
    await heading(page).getByText('Found 1 Bookmarks').waitFor();
    expect(await titles(page)).toEqual(['First article']);

    await page.locator('#bookmark-state-tabs').getByRole('link', { name: 'All' }).click();
    await page.waitForURL(/\/bookmark$/);
    await heading(page).getByText('Found 2 Bookmarks').waitFor();
    expect(await titles(page)).toEqual(['Second article', 'First article']);
    const read = page.locator('article.bookmark-card', { hasText: 'Second article' });
    expect(await read.getAttribute('data-state')).toBe('read');
    await read.getByRole('button', { name: 'Mark unread: Second article' }).waitFor();
    expect(await page.locator('article.bookmark-card', { hasText: 'First article' }).locator('.bookmark-state').innerText()).toBe('Unread');
  });
});
