import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { createAccount, type PageWatch, resetBookSearchSettings, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const ADMIN = { name: 'Ada Lovelace', email: 'ada@example.org', password: 'analytical engine' };
const READER = { displayName: 'Grace Hopper', email: 'grace@example.org', password: 'compiler pioneer' };
const LIBRARY = path.resolve(import.meta.dirname, '../../server/src/books/fixtures/calibre/library.json');
/** The books in the fixture library. */
const LIBRARY_SIZE = 15;
/** Bootstrap's text-success and text-danger. */
const GREEN = 'rgb(25, 135, 84)';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});


async function openSettings(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Advanced Search Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Advanced Search Settings' });
  await dialog.waitFor();
  return dialog;
}

async function closeSettings(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The page size and whether results carry comments, set in the settings modal. */
async function setSettings(page: Page, { entries, comment }: { entries?: number; comment?: boolean }) {
  const dialog = await openSettings(page);
  if (entries !== undefined) await dialog.getByLabel('entries').fill(String(entries));
  if (comment !== undefined) await dialog.getByLabel('include comment').setChecked(comment);
  await closeSettings(dialog);
}

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search books' }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

const cards = (page: Page) => page.locator('article.book-card');
const heading = (page: Page) => page.getByRole('heading', { level: 2 });
const newStart = (page: Page) => page.getByText(/^new start: \d+$/);
const titles = (page: Page) => cards(page).locator('h3 a').allInnerTexts();

describe('books, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  /** Script errors, CSP violations, and dialogs opened by book comments must never happen. */
  let seen: PageWatch;

  beforeEach(async () => {
    // The first test creates the account; the others start from the default settings as it did.
    await resetBookSearchSettings(server.baseUrl, ADMIN);
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: 'Europe/Berlin' });
    page = await context.newPage();
    seen = await watchForErrors(page, [/status of 401/]);
    return async () => {
      await context.close();
      expect(seen.problems).toEqual([]);
      expect(seen.dialogs).toEqual([]);
    };
  });

  it('lets the first account, an admin, upload the Calibre index from the settings modal', async () => {
    await page.goto('/book');
    await page.waitForURL('**/login');
    await page.getByLabel('Name').fill(ADMIN.name);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/book');

    const dialog = await openSettings(page);
    expect(await dialog.getByLabel('entries').inputValue()).toBe('10');
    expect(await dialog.getByLabel('format').locator('option').allInnerTexts()).toEqual([
      'all',
      'pdf',
      'epub',
      'mobi',
      'azw3',
      'chm',
    ]);
    expect(await dialog.getByLabel('include comment').isChecked()).toBe(false);
    expect(await dialog.getByRole('button', { name: 'Cancel Upload' }).count()).toBe(0);

    await dialog.getByLabel('Index file').setInputFiles(LIBRARY);
    const details = dialog.locator('#index-file-details');
    await details.waitFor();
    const detailsText = await details.innerText();
    expect(detailsText).toContain('library.json');
    expect(detailsText).toContain('application/json');
    expect(detailsText).toMatch(/\d+ bytes/);

    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const result = dialog.getByText(`total: ${LIBRARY_SIZE}, error: 0`);
    await result.waitFor();
    expect(await result.evaluate((element) => getComputedStyle(element).color)).toBe(GREEN);

    // Once the load has ended there is nothing to cancel (issue 37).
    expect(await dialog.getByRole('button', { name: 'Cancel Upload' }).count()).toBe(0);
    await closeSettings(dialog);

    await search(page, 'miserables');
    await expect.poll(() => titles(page)).toEqual(['Les Misérables']);
    expect(await heading(page).innerText()).toBe('1 books found');
  });

  it('chooses the fields with a multi-select that ignores case and accents, styled within the CSP', async () => {
    await signIn(page, ADMIN);
    const dialog = await openSettings(page);
    const fields = dialog.getByLabel('fields');
    const menu = dialog.getByRole('listbox');
    await dialog.getByText('Book Title').waitFor();
    // react-select's own styles came through: emotion's rules live in an adopted sheet, not a <style>.
    const select = fields.locator('xpath=ancestor::div[contains(@class, "-control")][1]');
    expect(await select.evaluate((element) => getComputedStyle(element).display)).toBe('flex');
    expect(await page.locator('style').count()).toBe(0);

    await dialog.getByRole('button', { name: 'Remove Book Title' }).click();
    await dialog.getByText('Select...').waitFor();

    await fields.fill('  AUTHÔR ');
    expect(await menu.getByRole('option').allInnerTexts()).toEqual(['Author Name']);
    await fields.fill('name');
    expect(await menu.getByRole('option').allInnerTexts()).toEqual(['File Name', 'Author Name']);
    await fields.fill('cômment');
    expect(await menu.getByRole('option').allInnerTexts()).toEqual(['Comment']);
    await fields.press('Enter');
    await fields.fill('zzz');
    await dialog.getByText('No options').waitFor();
    await fields.fill('');
    await closeSettings(dialog);

    // Searching the comments alone finds the book whose comment names Jean Valjean.
    await search(page, 'valjean');
    await expect.poll(() => titles(page)).toEqual(['Les Misérables']);
  });

  it('searches, pages with More, and clears the list', async () => {
    await signIn(page, ADMIN);
    await setSettings(page, { entries: 5 });

    await search(page, '');
    await expect.poll(() => cards(page).count()).toBe(5);
    expect(await heading(page).innerText()).toBe(`${LIBRARY_SIZE} books found`);
    expect(await newStart(page).innerText()).toBe('new start: 5');
    expect(await cards(page).evaluateAll((list) => list.map((card) => card.id))).toEqual(['0', '1', '2', '3', '4']);

    await page.getByRole('button', { name: '10 More' }).click();
    await expect.poll(() => cards(page).count()).toBe(10);
    expect(await newStart(page).innerText()).toBe('new start: 10');

    await page.getByRole('button', { name: '5 More' }).click();
    await expect.poll(() => cards(page).count()).toBe(15);
    expect(await newStart(page).innerText()).toBe('new start: 15');
    expect(await page.getByRole('button', { name: /More$/ }).count()).toBe(0);
    expect(new Set(await titles(page)).size).toBe(LIBRARY_SIZE);

    // The list survives a reload: the whole state is kept in localStorage.
    await page.reload();
    await expect.poll(() => cards(page).count()).toBe(15);

    await page.getByRole('button', { name: 'Clear List' }).click();
    expect(await cards(page).count()).toBe(0);
    expect(await heading(page).innerText()).toBe('0 books found');
    expect(await newStart(page).innerText()).toBe('new start: 0');
    expect(await page.getByRole('button', { name: 'Clear List' }).count()).toBe(0);
  });

  it('shows a card with its index, path, publisher, dates and the start of the comment as text', async () => {
    await signIn(page, ADMIN);
    await setSettings(page, { comment: true });
    await search(page, 'miserables');
    const card = cards(page).first();
    await card.waitFor();

    expect(await card.getAttribute('id')).toBe('0');
    expect(await card.locator('em').innerText()).toMatch(/Les Miserables - Victor Hugo\.epub$/);
    const text = await card.innerText();
    expect(text).toContain('Gallimard');
    expect(text).toMatch(/created .*2026.* · updated .*2026/);
    const preview = await card.locator('.book-comment-preview').innerText();
    // Tags become spaces (docs/behaviour/books.md), so the '</i>' before the comma leaves one.
    expect(preview).toMatch(/^Le chef-d’œuvre de Victor Hugo : la vie de Jean Valjean , forçat évadé\. Personnages/);
    expect(preview).toContain('Cosette & Fantine');
    expect(preview).not.toContain('<');
    expect(preview.length).toBeLessThanOrEqual(200);
  });

  it('opens a book, walks Previous and Next through the loaded list, and goes Back and to the Book List', async () => {
    await signIn(page, ADMIN);
    await setSettings(page, { entries: 5 });
    await search(page, '');
    await expect.poll(() => cards(page).count()).toBe(5);
    const listed = await titles(page);
    const ids = await cards(page)
      .locator('h3 a')
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname.split('/').pop()));

    await cards(page).nth(1).locator('h3 a').click();
    await page.waitForURL(`**/book/${ids[1]}`);
    const title = page.getByRole('heading', { level: 1 });
    await expect.poll(() => title.innerText()).toBe(listed[1]);
    const previous = page.getByRole('link', { name: 'Previous Book' });
    const next = page.getByRole('link', { name: 'Next Book' });

    await previous.click();
    await page.waitForURL(`**/book/${ids[0]}`);
    await expect.poll(() => title.innerText()).toBe(listed[0]);
    expect(await previous.count()).toBe(0);

    for (let at = 1; at < 5; at += 1) {
      await next.click();
      await page.waitForURL(`**/book/${ids[at]}`);
      await expect.poll(() => title.innerText()).toBe(listed[at]);
    }
    // The last book of the loaded list has no Next, even though the catalogue holds more.
    expect(await next.count()).toBe(0);
    expect(await previous.count()).toBe(1);

    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL(`**/book/${ids[3]}`);
    await page.getByRole('link', { name: 'Book List' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => cards(page).count()).toBe(5);
  });

  it('shows a book with its author, identifier, dates, publisher, path and comment', async () => {
    await signIn(page, ADMIN);
    await search(page, 'miserables');
    await cards(page).first().locator('h3 a').click();
    await page.getByRole('heading', { level: 1, name: 'Les Misérables' }).waitFor();

    const detail = page.locator('#book-detail');
    await detail.getByText('by Victor Hugo').waitFor();
    await detail.getByText('isbn:9782070409228').waitFor();
    await detail.getByText('published at 1862-04-03').waitFor();
    await detail.getByText('published by Gallimard').waitFor();
    expect(await detail.locator('article em').innerText()).toMatch(/Les Miserables - Victor Hugo\.epub$/);
    const comment = detail.locator('.book-comment');
    expect(await comment.evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe('solid');
    expect(await comment.locator('b').first().innerText()).toBe('Victor Hugo');
    expect(await comment.locator('li').allInnerTexts()).toEqual(['Jean Valjean', 'Javert', 'Cosette & Fantine']);
    expect(await comment.locator('a').getAttribute('rel')).toBe('noopener noreferrer nofollow');
  });

  it('never runs the script of a hostile comment, in the card or on the detail page', async () => {
    await signIn(page, ADMIN);
    await setSettings(page, { comment: true });
    await search(page, 'else');
    await expect.poll(() => titles(page)).toEqual(['Fräulein Else']);
    expect(await cards(page).first().locator('.book-comment-preview').innerText()).toBe(
      'Harmless first paragraph. Click here .',
    );

    await cards(page).first().locator('h3 a').click();
    const comment = page.locator('.book-comment');
    await comment.getByText('Harmless first paragraph.').waitFor();
    const html = await comment.innerHTML();
    expect(html).not.toMatch(/<script|onerror|onclick|javascript:|<img/i);
    expect(await comment.locator('a').getAttribute('href')).toBeNull();
    // Time for an image error handler or a script to fire, had either survived.
    await page.waitForTimeout(500);
    expect(seen.dialogs).toEqual([]);
    expect(await page.evaluate(() => document.querySelectorAll('script:not([src])').length)).toBe(0);
  });

  it('shows a refused search as the error line', async () => {
    seen.expected.push(/status of 400/);
    await signIn(page, ADMIN);
    await search(page, 'word '.repeat(300));

    const error = page.getByText(/^error occured: /);
    await error.waitFor();
    expect(await error.innerText()).toMatch(/keys/);
    expect(await error.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(220, 53, 69)');

    await search(page, 'miserables');
    await error.waitFor({ state: 'detached' });
  });

  // The budget is 50 ms (docs/budgets.md) on a quiet machine; beside other work the test fails only
  // at ten times that, a render that has gone wrong rather than a busy machine, and prints the figure.
  it('renders a page of 100 result cards soon after the parsed reply', async () => {
    await signIn(page, ADMIN);
    // A Calibre description of a usual length, with the usual markup.
    const comment = `<div><p>${'A comment with <b>markup</b>, <i>emphasis</i> &amp; entities. '.repeat(25)}</p></div>`;
    const books = Array.from({ length: 100 }, (_, index) => ({
      index,
      id: String(1000 + index),
      path: `Author ${index}/Book ${index}/Book ${index}.epub`,
      title: `Book ${index}`,
      author: `Author ${index}`,
      identifier: `isbn:${9780000000000 + index}`,
      publish_date: '2001-01-01',
      publisher: 'Publisher',
      created: '2024-01-01T00:00:00Z',
      updated: '2024-06-01T00:00:00Z',
      formats: [`Author ${index}/Book ${index}/Book ${index}.epub`],
      comment,
    }));
    await page.route(
      (url) => url.pathname === '/api/books',
      (route) => route.fulfill({ json: { total: 1000, books, library_folder: '', files_served: false } }),
    );
    // The clock starts once the reply's JSON is parsed: what follows is the client's own work.
    await page.evaluate(() => {
      const json = Response.prototype.json;
      Response.prototype.json = async function (this: Response) {
        const value: unknown = await json.call(this);
        if (new URL(this.url).pathname === '/api/books') Object.assign(window, { booksParsedAt: performance.now() });
        return value;
      };
    });

    // The median of three runs, so that one garbage collection does not decide the figure.
    const timings: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      if (run > 0) await page.getByRole('button', { name: 'Clear List' }).click();
      await page.getByRole('searchbox', { name: 'Search books' }).fill(`anything ${run}`);
      const rendered = page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const observer = new MutationObserver(() => {
              if (document.querySelectorAll('article.book-card').length < 100) return;
              observer.disconnect();
              resolve(performance.now() - (window as unknown as { booksParsedAt: number }).booksParsedAt);
            });
            observer.observe(document.body, { childList: true, subtree: true });
          }),
      );
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      timings.push(await rendered);
      // The list may be drawn again just after (a search repeated once the account's settings arrive): poll.
      await expect.poll(() => cards(page).count()).toBe(100);
    }

    expect(await cards(page).last().locator('.book-comment-preview').innerText()).toHaveLength(200);
    const median = timings.toSorted((a, b) => a - b)[1]!;
    console.log(`100 result cards rendered ${median.toFixed(1)} ms after the parsed reply (median of 3; budget 50 ms)`);
    expect(median).toBeLessThan(500);
  });

  it('offers the index upload to admins only', async () => {
    await createAccount(server.baseUrl, READER);
    await signIn(page, READER);

    const dialog = await openSettings(page);
    await dialog.getByLabel('entries').waitFor();
    expect(await dialog.getByLabel('Index file').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Upload', exact: true }).count()).toBe(0);
    await closeSettings(dialog);

    // Readers search the same catalogue.
    await search(page, 'omens');
    await expect.poll(() => titles(page)).toEqual(['Good Omens']);
  });
});
