import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
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

/** A new account, and calls made with its token outside the browser. */
async function newAccount() {
  accounts += 1;
  const email = `reader${accounts}@example.org`;
  const idToken = await createAccount(server.baseUrl, { email, password: PASSWORD, displayName: `Reader ${accounts}` });
  const api = apiAs(server.baseUrl, idToken);
  /** Creates and indexes, as the create screen does. */
  const save = async (title: string, link: string, tags = '') => {
    const created = await api('/bookmarks/', 'POST', { title, link, tags });
    expect(created.status).toBe(200);
    const bookmark = (await created.json()) as { id: number };
    expect((await api('/api/bookmarks/', 'POST', bookmark)).status).toBe(200);
    return bookmark.id;
  };
  return { email, api, save };
}

/** A browser's bookmarks file of `count` links, each titled with "garden". */
function bookmarksFile(count: number): Buffer {
  const links = Array.from(
    { length: count },
    (_, i) => `<DT><A HREF="https://garden.example.org/${i}" ADD_DATE="${1_700_000_000 + i}">Garden note ${i}</A>`,
  );
  return Buffer.from(`<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n${links.join('\n')}\n</DL><p>\n`);
}

const cards = (page: Page) => page.locator('article.bookmark-card');
const titles = (page: Page) => cards(page).locator('h3 a[target="_blank"]').allInnerTexts();
const heading = (page: Page) => page.getByRole('heading', { level: 2 });

describe('bookmarks in daily use, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: 'Europe/Berlin' });
    page = await context.newPage();
    // The index check of a bookmark not indexed, and of a deleted one, is a 404 (docs/behaviour/bookmarks.md).
    problems = (await watchForErrors(page, [/status of 404/])).problems;
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  it('deletes a bookmark from its page after asking, then shows the list without it', async () => {
    const { email, api, save } = await newAccount();
    await save('Keep me', 'https://keep.example.org/');
    const id = await save('Delete me', 'https://delete.example.org/');
    await signIn(page, { email, password: PASSWORD });
    await page.goto(`/bookmark/${id}`);
    await page.locator('#bookmark-title').getByText('Delete me').waitFor();

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this bookmark?' });
    await dialog.getByText('“Delete me” and its search index entry will be deleted.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await api(`/bookmarks/${id}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(/\/bookmark$/);
    await expect.poll(() => titles(page)).toEqual(['Keep me']);
    expect(await heading(page).innerText()).toBe('Found 1 Bookmarks');
    expect((await api(`/bookmarks/${id}`)).status).toBe(404);
  });

  it('selects bookmarks on the list to add a tag to each, then to delete them', async () => {
    const { email, save } = await newAccount();
    for (const n of [1, 2, 3]) await save(`Recipe ${n}`, `https://food.example.org/${n}`);
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/bookmark');
    await expect.poll(() => titles(page)).toEqual(['Recipe 3', 'Recipe 2', 'Recipe 1']);

    await page.getByLabel('Select Recipe 3').check();
    await page.getByLabel('Select Recipe 1').check();
    await page.getByText('2 selected').waitFor();
    await page.getByLabel('Tag to add').fill('Dinner');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await expect.poll(() => cards(page).filter({ has: page.getByRole('link', { name: 'Dinner', exact: true }) }).locator('h3 a[target="_blank"]').allInnerTexts()).toEqual([
      'Recipe 3',
      'Recipe 1',
    ]);
    // Tagged, the selection is done with: a later "Delete selected" cannot take them by surprise.
    await page.getByText('0 selected').waitFor();
    expect(await page.getByRole('button', { name: 'Delete selected' }).isDisabled()).toBe(true);

    await page.getByLabel('Select Recipe 3').check();
    await page.getByLabel('Select Recipe 1').check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 2 bookmarks?' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => titles(page)).toEqual(['Recipe 2']);
    await expect.poll(() => heading(page).innerText()).toBe('Found 1 Bookmarks');
    await page.getByText('0 selected').waitFor();
  });

  it('opens the list of a tag from its chip, whatever case the tag was written in', async () => {
    const { email, save } = await newAccount();
    await save('First news', 'https://news.example.org/1', 'News');
    await save('Second news', 'https://news.example.org/2', 'news, daily');
    await save('Not news', 'https://other.example.org/', 'other');
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/bookmark');
    await expect.poll(() => titles(page)).toHaveLength(3);
    const second = cards(page).filter({ hasText: 'Second news' });
    expect(await second.locator('.tag-chip').allInnerTexts()).toEqual(['News', 'daily']);

    await second.getByRole('link', { name: 'News', exact: true }).click();
    await page.waitForURL(/\/bookmark\?tag=News$/);
    await expect.poll(() => titles(page)).toEqual(['Second news', 'First news']);
    await page.getByText('Tagged “News”').waitFor();
    expect(await heading(page).innerText()).toBe('Found 2 Bookmarks');

    // The detail page shows the chips too.
    await cards(page).first().getByRole('link', { name: 'Details of Second news' }).click();
    await page.locator('#bookmark-title').getByText('Second news').waitFor();
    await page.locator('#bookmark-detail .tag-chip', { hasText: 'daily' }).click();
    await page.waitForURL(/\/bookmark\?tag=daily$/);
    await expect.poll(() => titles(page)).toEqual(['Second news']);
  });

  it('lists every tag on the tags page, most used first, with a filter box', async () => {
    const { email, save } = await newAccount();
    await save('One', 'https://tags.example.org/1', 'Reading, travel');
    await save('Two', 'https://tags.example.org/2', 'reading, cooking');
    await save('Three', 'https://tags.example.org/3', 'READING, travel');
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/book');
    await page.getByRole('button', { name: 'Bookmarks' }).click();
    // The books page has a Tags link of its own (Browse); this is the Bookmarks menu's.
    await page.getByLabel('Bookmarks').getByRole('link', { name: 'Tags' }).click();
    await page.waitForURL(/\/bookmark\/tags$/);
    const rows = page.locator('.tag-count');
    await expect.poll(() => rows.allInnerTexts()).toEqual(['Reading\n3', 'travel\n2', 'cooking\n1']);
    await page.getByLabel('Filter tags').fill('RA');
    await expect.poll(() => rows.allInnerTexts()).toEqual(['travel\n2']);
    await page.getByLabel('Filter tags').fill('nothing like it');
    await page.getByText('No tag matches').waitFor();
    await page.getByLabel('Filter tags').fill('');
    await rows.first().click();
    await page.waitForURL(/\/bookmark\?tag=Reading$/);
    await expect.poll(() => titles(page)).toEqual(['Three', 'Two', 'One']);
  });

  it('counts every match after an import, not the cards loaded, and keeps the page size chosen', async () => {
    const { email } = await newAccount();
    await signIn(page, { email, password: PASSWORD });
    await page.goto('/bookmark');
    await page.getByText('No bookmark found').waitFor();
    await page.getByLabel('Bookmarks file to import').setInputFiles({ name: 'garden.html', mimeType: 'text/html', buffer: bookmarksFile(12) });
    await page.getByText('imported: 12, skipped: 0, errors: 0').waitFor();
    await expect.poll(() => titles(page)).toHaveLength(5);
    expect(await heading(page).innerText()).toBe('Found 12 Bookmarks');

    await page.getByLabel('Per page').selectOption('10');
    await expect.poll(() => titles(page)).toHaveLength(10);
    expect(await heading(page).innerText()).toBe('Found 12 Bookmarks');

    await page.goto('/bookmark/query');
    await page.getByRole('searchbox', { name: 'Key words' }).fill('garden');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => titles(page)).toHaveLength(10);
    expect(await heading(page).innerText()).toBe('Found 12 Bookmarks');
    expect(await page.getByLabel('Per page').inputValue()).toBe('10');

    // The choice is kept in the saved state: a new page load keeps it.
    await page.goto('/bookmark');
    await expect.poll(() => titles(page)).toHaveLength(10);
  });
});
