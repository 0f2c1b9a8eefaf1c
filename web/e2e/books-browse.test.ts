import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { createAccount, libraryLoaded, type PageWatch, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const FIXTURE_LIBRARY = path.resolve(import.meta.dirname, '../../server/src/books/fixtures/library');
const READER = { displayName: 'Grace Hopper', email: 'grace@example.org', password: 'compiler pioneer' };
/** Written by each run, git-ignored: look at them after a change to the screens. */
const SCREENSHOTS = path.resolve(import.meta.dirname, 'screenshots');
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

let work: string;
let server: RunningServer;
let browser: Browser;

/** The server follows a copy of the fixture Calibre library, so that covers are served. */
beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-e2e-browse-'));
  const library = path.join(work, 'Calibre Library');
  fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true', CALIBRE_LIBRARY: library }), launchBrowser()]);
  await createAccount(server.baseUrl, READER);
  await libraryLoaded(server.baseUrl);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

const cards = (page: Page) => page.locator('article.book-card');
const titles = (page: Page) => cards(page).locator('h3 a').allInnerTexts();

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search books' }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

async function screenshots(page: Page, name: string, ready: () => Promise<unknown>) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await ready();
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${size.name}.png`), fullPage: true });
  }
}

describe('a library one can walk (issue 37), end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let seen: PageWatch;

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl });
    page = await context.newPage();
    seen = await watchForErrors(page, [/status of 401/]);
    return async () => {
      await context.close();
      expect(seen.problems).toEqual([]);
    };
  });

  it('finds an author from the box once the search is widened, and another browser starts widened', async () => {
    await signIn(page, READER);
    const scope = page.locator('#search-scope');
    await scope.getByText('Searching: Book Title').waitFor();
    await search(page, 'stewart');
    await page.getByRole('heading', { name: '0 books found' }).waitFor();

    await scope.getByRole('button', { name: 'Search everything' }).click();
    await page.getByRole('heading', { name: '2 books found' }).waitFor();
    await scope.getByText('Searching: everything').waitFor();
    expect((await titles(page)).toSorted()).toEqual(['The Globe', 'The Science of Discworld']);
    await screenshots(page, 'books-search-everything', () => page.getByRole('heading', { name: '2 books found' }).waitFor());

    // Another browser of the same account: the settings come from the server, not this browser's storage.
    const other = await browser.newContext({ baseURL: server.baseUrl });
    const otherPage = await other.newPage();
    const otherSeen = await watchForErrors(otherPage, [/status of 401/]);
    await signIn(otherPage, READER);
    await otherPage.locator('#search-scope').getByText('Searching: everything').waitFor();
    await search(otherPage, 'fantasy');
    await otherPage.getByRole('heading', { name: '1 books found' }).waitFor();
    await other.close();
    expect(otherSeen.problems).toEqual([]);
  });

  it("browses the authors A–Z to an author's books, and a series in its order", async () => {
    await signIn(page, READER);
    await page.getByRole('navigation', { name: 'Browse books' }).getByRole('link', { name: 'Authors' }).click();
    await page.getByRole('heading', { level: 1, name: 'Authors' }).waitFor();
    // Filed by surname: Cohen under C comes first.
    const values = page.locator('.facet-values li');
    const shown = () => values.evaluateAll((items) => items.map((item) => `${item.querySelector('a')?.textContent} ${item.querySelector('.badge')?.textContent}`));
    await values.first().waitFor();
    expect(await shown()).toEqual(['Jack Cohen 2']);
    await page.getByRole('button', { name: 'S', exact: true }).click();
    await expect.poll(shown).toEqual(['Arthur Schnitzler 2', 'Ian Stewart 2']);
    await screenshots(page, 'books-browse-authors', () => values.first().waitFor());

    await page.getByRole('link', { name: 'Arthur Schnitzler' }).click();
    await page.getByRole('heading', { level: 1, name: 'Books by Arthur Schnitzler' }).waitFor();
    await page.getByRole('heading', { name: '2 books' }).waitFor();
    expect(await titles(page)).toEqual(['Fräulein Else', 'Traumnovelle']);

    // The series from a card's link: in the series' order, not the titles'.
    await page.goto('/book');
    await search(page, 'globe');
    await cards(page).first().getByRole('link', { name: 'The Science of Discworld [2]' }).click();
    await page.getByRole('heading', { level: 1, name: 'Series: The Science of Discworld' }).waitFor();
    await expect.poll(() => titles(page)).toEqual(['The Science of Discworld', 'The Globe']);
    await screenshots(page, 'books-series-shelf', () => cards(page).nth(1).waitFor());
    await page.getByLabel('Sort by').selectOption('title');
    await expect.poll(() => titles(page)).toEqual(['The Globe', 'The Science of Discworld']);
  });

  it('shows the books as a cover grid, and an author link on the detail page', async () => {
    await signIn(page, READER);
    await page.getByRole('heading', { name: '6 books found' }).waitFor();
    await page.getByRole('button', { name: 'Covers' }).click();
    const grid = page.getByRole('list', { name: 'Book covers' });
    await expect.poll(() => grid.locator('li').count()).toBe(6);
    await grid.getByRole('img', { name: 'Cover of The Globe' }).waitFor();
    await grid.locator('li').filter({ hasText: 'Fräulein Else' }).locator('.book-grid-blank').waitFor();
    await screenshots(page, 'books-cover-grid', () => grid.getByRole('img', { name: 'Cover of The Globe' }).waitFor());

    // The book page shows the list's copy at once, then the cover comes: held back here, so that
    // the author link's place is read before it. The link must not move when the picture comes
    // (it did, and a click aimed at it landed on nothing).
    let releaseCover = () => {};
    const coverHeld = new Promise<void>((resolve) => (releaseCover = resolve));
    await page.route('**/api/books/*/cover?size=full', async (route) => {
      await coverHeld;
      await route.continue();
    });
    await grid.getByRole('link', { name: 'Les Misérables' }).click();
    await page.getByRole('heading', { level: 1, name: 'Les Misérables' }).waitFor();
    await page.locator('#book-detail').getByText('by Victor Hugo').waitFor();
    const author = page.locator('#book-detail').getByRole('link', { name: 'Victor Hugo' });
    const before = await author.boundingBox();
    releaseCover();
    await page.locator('#book-detail').getByRole('img', { name: 'Cover of Les Misérables' }).waitFor();
    expect(await author.boundingBox()).toEqual(before);
    await page.unrouteAll();
    await author.click();
    await page.getByRole('heading', { level: 1, name: 'Books by Victor Hugo' }).waitFor();
    // The grid is the account's choice now: the shelf shows covers too.
    await page.getByRole('list', { name: 'Book covers' }).getByText('Les Misérables').waitFor();
  });
});
