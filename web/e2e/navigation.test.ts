import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const ADMIN = { displayName: 'Ada Lovelace', email: 'ada@example.org', password: 'analytical engine' };
const BOOKS = 40;

let server: RunningServer;
let browser: Browser;
let api: ReturnType<typeof apiAs>;
const bookmarkIds: number[] = [];
let taskId: string;

/** A catalogue of `count` books titled "Garden notes N", each with a comment longer than a window, as a Calibre CSV. */
function gardenCatalogue(count: number): Blob {
  const comment = Array.from({ length: 80 }, (_, line) => `<p>Line ${line + 1} of the notes on borders, beds and paths.</p>`).join('\n');
  const rows = Array.from({ length: count }, (_, i) => `${i + 1},Garden notes ${i + 1},Gertrude Jekyll,"${comment}"`);
  return new Blob([['id,title,authors,comments', ...rows].join('\n')], { type: 'text/csv' });
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const idToken = await createAccount(server.baseUrl, { ...ADMIN });
  api = apiAs(server.baseUrl, idToken);
  const upload = new FormData();
  upload.append('name', 'replace');
  upload.append('file', gardenCatalogue(BOOKS), 'catalogue.csv');
  const loaded = await fetch(`${server.baseUrl}/api/books/index`, { method: 'POST', headers: { authorization: `Bearer ${idToken}` }, body: upload });
  expect(loaded.status).toBe(200);
  for (let n = 1; n <= 14; n += 1) {
    const created = await api('/bookmarks/', 'POST', { title: `Garden bookmark ${n}`, link: `https://garden.example.org/${n}`, tags: 'garden' });
    const bookmark = (await created.json()) as { id: number };
    expect((await api('/api/bookmarks/', 'POST', bookmark)).status).toBe(200);
    bookmarkIds.push(bookmark.id);
  }
  const task = await api('/schedule', 'POST', { name: 'Water the garden', first_schedule_time: '2030-03-06T09:00:00Z' });
  taskId = ((await task.json()) as { id: string }).id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** Scrolls until `locator` sits near the top of the window, and says where the window then is. */
async function scrollTo(page: Page, selector: string): Promise<number> {
  await page.locator(selector).evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 100));
  await expect.poll(() => scrollY(page)).toBeGreaterThan(300);
  return scrollY(page);
}

/** The API requests the page makes from now on, by method and path. */
function recordRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'fetch') seen.push(`${request.method()} ${url.pathname}`);
  });
  return seen;
}

describe('the way back, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: 'Europe/Berlin', viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    problems = (await watchForErrors(page, [/status of 401/])).problems;
    await signIn(page, ADMIN);
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  const bookmarkCards = () => page.locator('article.bookmark-card');

  it('keeps the bookmark list, its pages and its scroll place on the way back from a bookmark, by the Back button or the browser', async () => {
    await page.getByRole('button', { name: 'Bookmarks', exact: true }).click();
    await page.locator('#nav-bookmark-list').click();
    await expect.poll(() => bookmarkCards().count()).toBe(5);
    for (const loaded of [10, 14]) {
      await page.getByRole('button', { name: 'Get More' }).click();
      await expect.poll(() => bookmarkCards().count()).toBe(loaded);
    }

    for (const goBack of [() => page.getByRole('button', { name: 'Back' }).click(), () => page.goBack()]) {
      const place = await scrollTo(page, '#bookmark-list article.bookmark-card:nth-child(12)');
      await page.getByRole('link', { name: 'Details of Garden bookmark 3', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Garden bookmark 3' }).waitFor();
      const requests = recordRequests(page);
      await goBack();
      await page.waitForURL((url) => url.pathname === '/bookmark');
      expect(await bookmarkCards().count()).toBe(14);
      await expect.poll(() => scrollY(page)).toBeCloseTo(place, -1);
      expect(requests.filter((request) => request.startsWith('GET /bookmarks/'))).toEqual([]);
    }

    // The menu opens the list afresh: its first page.
    await page.getByRole('button', { name: 'Bookmarks', exact: true }).click();
    await page.locator('#nav-bookmark-list').click();
    await expect.poll(() => bookmarkCards().count()).toBe(5);
  });

  it('keeps the search, its key words, results and scroll place on the way back from a bookmark, past Next', async () => {
    await page.getByRole('button', { name: 'Bookmarks', exact: true }).click();
    await page.locator('#nav-bookmark-query').click();
    await page.getByRole('searchbox', { name: 'Key words' }).fill('garden');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => bookmarkCards().count()).toBe(5);
    await page.getByRole('button', { name: 'Get More' }).click();
    await expect.poll(() => bookmarkCards().count()).toBe(10);
    const place = await scrollTo(page, '#bookmark-query article.bookmark-card:nth-child(8)');

    await page.getByRole('link', { name: 'Details of Garden bookmark 7', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Garden bookmark 7' }).waitFor();
    await page.getByRole('link', { name: 'Next', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Garden bookmark 6' }).waitFor();
    const requests = recordRequests(page);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { level: 1, name: 'Garden bookmark 7' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL((url) => url.pathname === '/bookmark/query');

    expect(await page.getByRole('searchbox', { name: 'Key words' }).inputValue()).toBe('garden');
    expect(await bookmarkCards().count()).toBe(10);
    expect(await page.getByRole('heading', { level: 2 }).innerText()).toBe('Found 14 Bookmarks');
    await expect.poll(() => scrollY(page)).toBeCloseTo(place, -1);
    expect(requests.filter((request) => request.includes('/query'))).toEqual([]);
    // Get More goes on from the results kept.
    await page.getByRole('button', { name: 'Get More' }).click();
    await expect.poll(() => bookmarkCards().count()).toBe(14);

    // The menu opens the search afresh, empty (spec: "The list is cleared on entering").
    await page.getByRole('button', { name: 'Bookmarks', exact: true }).click();
    await page.locator('#nav-bookmark-query').click();
    await expect.poll(() => page.getByRole('searchbox', { name: 'Key words' }).inputValue()).toBe('');
    expect(await bookmarkCards().count()).toBe(0);
  });

  it('searches again on the way back when another list was loaded meanwhile', async () => {
    await page.goto('/bookmark/query');
    await page.getByRole('searchbox', { name: 'Key words' }).fill('bookmark 1');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => bookmarkCards().count()).toBe(5);
    await page.getByRole('button', { name: 'Bookmarks', exact: true }).click();
    await page.locator('#nav-bookmark-list').click();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe('Found 14 Bookmarks');
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/bookmark/query');
    expect(await page.getByRole('searchbox', { name: 'Key words' }).inputValue()).toBe('bookmark 1');
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe('Found 6 Bookmarks');
  });

  it('keeps the book search, its words, results and scroll place on the way back from a book', async () => {
    const bookCards = page.locator('article.book-card');
    await page.getByRole('searchbox', { name: 'Search books' }).fill('garden');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => bookCards.count()).toBe(10);
    await page.getByRole('button', { name: `${BOOKS - 10} More` }).click();
    await expect.poll(() => bookCards.count()).toBe(20);
    const place = await scrollTo(page, 'article.book-card:nth-child(15)');

    const opened = bookCards.nth(15).locator('h3 a');
    const title = await opened.innerText();
    await opened.click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    // A link opens its page at the top, however far down the list was.
    await page.getByText('Line 80 of the notes').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(place + 800);
    expect(await scrollY(page)).toBe(0);
    const requests = recordRequests(page);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL((url) => url.pathname === '/book');
    expect(await page.getByRole('searchbox', { name: 'Search books' }).inputValue()).toBe('garden');
    expect(await bookCards.count()).toBe(20);
    await expect.poll(() => scrollY(page)).toBeCloseTo(place, -1);
    // The catalogue loads' progress stream opens with the page; the account's search settings and
    // "Continue reading" are asked again (another browser may have changed the one, the reader or an
    // e-reader moved the other: issues 37 and 38); no search or book is.
    const askedAgain = new Set(['GET /api/books/search-settings', 'GET /api/books/continue']);
    const bookReads = requests.filter(
      (request) =>
        request.startsWith('GET /api/books') && !request.startsWith('GET /api/books/index/') && !askedAgain.has(request),
    );
    expect(bookReads).toEqual([]);

    // Opened again, the book shows at once from the store, long, and still from its top.
    await opened.click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await scrollY(page)).toBe(0);
  });

  it.each([
    { name: 'a bookmark', path: () => `/bookmark/${bookmarkIds[0]}`, heading: 'Garden bookmark 1', list: '/bookmark' },
    { name: 'a book', path: () => '/book/1', heading: 'Garden notes 1', list: '/book' },
    { name: 'a task', path: () => `/task/${taskId}`, heading: 'Water the garden', list: '/task' },
  ])('goes from $name opened in a new tab to its list, inside the app', async ({ path, heading, list }) => {
    const tab = await context.newPage();
    const tabProblems = (await watchForErrors(tab, [/status of 401/])).problems;
    await tab.goto(path());
    await tab.getByRole('heading', { level: 1, name: heading }).waitFor();
    // The tab's one entry before this page is its blank start, outside the app: a history Back would leave.
    expect(await tab.evaluate(() => window.history.length)).toBe(2);

    await tab.getByRole('button', { name: 'Back' }).click();
    await tab.waitForURL((url) => url.origin === server.baseUrl && url.pathname === list);
    await expect.poll(() => tab.locator('h1').innerText()).not.toBe('');
    expect(tabProblems).toEqual([]);
  });
});
