import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogueBook } from '../../contract/books.ts';
import { launchBrowser } from './browser.ts';
import { createAccount, type PageWatch, resetBookSearchSettings, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const ADMIN = { displayName: 'Ada Lovelace', email: 'ada@example.org', password: 'analytical engine' };
const LIBRARY = '/srv/Calibre Library';

/** A book in Calibre's layout below LIBRARY, last updated on `updated` (null: never). */
function book(id: number, title: string, author: string, updated: string | null, format = 'epub', comment: string | null = null) {
  const file = `${LIBRARY}/${author}/${title} (${id})/${title} - ${author}.${format}`;
  return CatalogueBook.parse({
    id: String(id),
    title,
    author,
    identifier: '',
    publish_date: null,
    publisher: '',
    created: '2024-01-01T00:00:00.000Z',
    updated,
    comment,
    path: file,
    formats: [file],
  });
}

/** "harbour" is in two titles and one author's name; one of the three is a pdf. */
const CATALOGUE = [
  book(1, 'Harbour Lights', 'Ann Other', '2025-01-01T00:00:00.000Z', 'epub', '<p>&copy; 2024 Ann Other &mdash; a <b>tale</b></p>'),
  book(2, 'Winter Harbour', 'Bo Writer', '2025-02-01T00:00:00.000Z', 'pdf'),
  book(3, 'Summer Tales', 'Cy Harbour', '2025-03-01T00:00:00.000Z'),
  ...Array.from({ length: 9 }, (_, at) => book(10 + at, `Filler ${at}`, 'Dee Filler', `2024-0${at + 1}-15T00:00:00.000Z`)),
  book(30, 'Undated', 'Eve Nobody', null),
];
/** Newest first, by last update; the undated book last. */
const NEWEST_FIRST = [
  'Summer Tales',
  'Winter Harbour',
  'Harbour Lights',
  ...Array.from({ length: 9 }, (_, at) => `Filler ${8 - at}`),
  'Undated',
];
const jsonLines = (books: CatalogueBook[]) => books.map((one) => `${JSON.stringify(one)}\n`).join('');

let server: RunningServer;
let browser: Browser;
let tmp: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true' }), launchBrowser()]);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-books-daily-'));
  // The first account is the admin, who loads the catalogue.
  const token = await createAccount(server.baseUrl, ADMIN);
  const form = new FormData();
  form.append('name', 'replace');
  form.append('file', new Blob([jsonLines(CATALOGUE)]), 'catalogue.jsonl');
  const loaded = await fetch(`${server.baseUrl}/api/books/index`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(loaded.status, await loaded.clone().text()).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const cards = (page: Page) => page.locator('article.book-card');
const titles = (page: Page) => cards(page).locator('h3 a').allInnerTexts();
const heading = (page: Page) => page.getByRole('heading', { level: 2 });
const chips = (page: Page) => page.getByRole('list', { name: 'Search narrowed by' }).getByRole('listitem');
const noFieldsNote = (page: Page) => page.getByText(/^No fields chosen: /);

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

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search books' }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

describe('the books page in daily use, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let seen: PageWatch;

  beforeEach(async () => {
    // The settings are the account's, on the server: each test starts from the defaults.
    await resetBookSearchSettings(server.baseUrl, ADMIN);
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: 'Europe/Berlin' });
    page = await context.newPage();
    seen = await watchForErrors(page, [/status of 401/]);
    return async () => {
      await context.close();
      expect(seen.problems).toEqual([]);
    };
  });

  it('lists the newest books on the first visit, most recently updated first, with the real total', async () => {
    await signIn(page, ADMIN);

    await expect.poll(() => titles(page)).toEqual(NEWEST_FIRST.slice(0, 10));
    expect(await heading(page).innerText()).toBe(`${CATALOGUE.length} books found`);
    await page.getByText('Newest books first, by last update').waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search books' }).inputValue()).toBe('');
    expect(await chips(page).count()).toBe(0);

    await page.getByRole('button', { name: `${CATALOGUE.length - 10} More` }).click();
    await expect.poll(() => titles(page)).toEqual(NEWEST_FIRST);

    // A search replaces the listing; coming back to the page keeps the search, even an empty one.
    // The list is cleared the moment the search is sent, so '0 books found' shows before the answer;
    // a reload before the answer is in would save no search, and the page would list the newest books.
    const answered = page.waitForResponse((response) => response.url().includes('keys=nothing-is-called-this'));
    await search(page, 'nothing-is-called-this');
    expect((await answered).status()).toBe(200);
    await expect.poll(() => heading(page).innerText()).toBe('0 books found');
    await page.reload();
    await heading(page).waitFor();
    expect(await heading(page).innerText()).toBe('0 books found');
    expect(await cards(page).count()).toBe(0);
  });

  it('keeps a search sent before the account\'s settings arrive, rather than listing the newest books over it', async () => {
    await signIn(page, ADMIN);
    await expect.poll(() => titles(page)).toEqual(NEWEST_FIRST.slice(0, 10));
    // Cleared, the list is listed again on the next visit: a fresh load of the page, with the
    // settings held back until the search has been sent.
    await page.getByRole('button', { name: 'Clear List' }).click();
    await expect.poll(() => cards(page).count()).toBe(0);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/books/search-settings', async (route) => {
      if (route.request().method() === 'GET') await released;
      await route.continue();
    });
    await page.reload();
    await search(page, 'harbour');
    await expect.poll(() => page.getByRole('button', { name: 'Search', exact: true }).isDisabled()).toBe(true);
    release();
    await expect.poll(() => titles(page)).toEqual(['Harbour Lights', 'Winter Harbour']);
    expect(await heading(page).innerText()).toBe('2 books found');
    expect(await page.getByRole('searchbox', { name: 'Search books' }).inputValue()).toBe('harbour');
  });

  it('shows card paths below the library folder, the whole path in the tooltip and on the detail page', async () => {
    await signIn(page, ADMIN);
    await search(page, 'harbour lights');
    await expect.poll(() => titles(page)).toEqual(['Harbour Lights']);
    const shown = cards(page).first().locator('em');
    const full = `${LIBRARY}/Ann Other/Harbour Lights (1)/Harbour Lights - Ann Other.epub`;

    expect(await shown.innerText()).toBe('Ann Other/Harbour Lights (1)/Harbour Lights - Ann Other.epub');
    expect(await shown.getAttribute('title')).toBe(full);

    await cards(page).first().locator('h3 a').click();
    await page.getByRole('heading', { level: 1, name: 'Harbour Lights' }).waitFor();
    expect(await page.locator('#book-detail article em').innerText()).toBe(full);
  });

  it('decodes entities in the comment preview: &copy; shows ©', async () => {
    await signIn(page, ADMIN);
    const dialog = await openSettings(page);
    await dialog.getByLabel('include comment').setChecked(true);
    await closeSettings(dialog);
    await search(page, 'harbour lights');

    const preview = cards(page).first().locator('.book-comment-preview');
    await expect.poll(() => preview.innerText()).toBe('© 2024 Ann Other — a tale');
  });

  it('shows the format and the chosen fields as chips; removing one searches again without it', async () => {
    await signIn(page, ADMIN);
    await expect.poll(() => cards(page).count()).toBe(10);
    const dialog = await openSettings(page);
    const fields = dialog.getByLabel('fields');
    await fields.fill('author');
    await fields.press('Enter');
    await dialog.getByLabel('format').selectOption('epub');
    await closeSettings(dialog);

    // The newest listing is narrowed by its format alone: it looks in no field.
    await search(page, '');
    await expect.poll(() => chips(page).allInnerTexts()).toEqual(['Format: epub']);
    expect(await titles(page)).not.toContain('Winter Harbour');

    await search(page, 'harbour');
    await expect.poll(() => chips(page).allInnerTexts()).toEqual(['Format: epub', 'Field: Book Title', 'Field: Author Name']);
    expect((await titles(page)).toSorted()).toEqual(['Harbour Lights', 'Summer Tales']);

    await page.getByRole('button', { name: 'Remove Field: Author Name' }).click();
    await expect.poll(() => titles(page)).toEqual(['Harbour Lights']);
    expect(await chips(page).allInnerTexts()).toEqual(['Format: epub', 'Field: Book Title']);

    await page.getByRole('button', { name: 'Remove Format: epub' }).click();
    await expect.poll(() => titles(page).then((list) => list.toSorted())).toEqual(['Harbour Lights', 'Winter Harbour']);
    expect(await chips(page).allInnerTexts()).toEqual(['Field: Book Title']);
    expect(await heading(page).innerText()).toBe('2 books found');

    // The settings follow: the modal shows what the chips left.
    const after = await openSettings(page);
    expect(await after.getByLabel('format').inputValue()).toBe('all');
    await after.getByText('Book Title').waitFor();
    expect(await after.getByText('Author Name').count()).toBe(0);
    await closeSettings(after);

    // The last field removed: none chosen, and the page says so.
    expect(await noFieldsNote(page).count()).toBe(0);
    await page.getByRole('button', { name: 'Remove Field: Book Title' }).click();
    await noFieldsNote(page).waitFor();
    expect(await chips(page).count()).toBe(0);
  });

  it('says so when a search is made with no fields chosen', async () => {
    await signIn(page, ADMIN);
    const dialog = await openSettings(page);
    await dialog.getByRole('button', { name: 'Remove Book Title' }).click();
    await dialog.getByText('Select...').waitFor();
    await closeSettings(dialog);

    await search(page, 'harbour');

    const note = noFieldsNote(page);
    await note.waitFor();
    expect(await note.innerText()).toBe(
      'No fields chosen: the words were looked for in Book Title, the default. Choose fields in Advanced Search Settings.',
    );
    await expect.poll(() => titles(page).then((list) => list.toSorted())).toEqual(['Harbour Lights', 'Winter Harbour']);

    // A search with a field chosen again has no note.
    const again = await openSettings(page);
    const fields = again.getByLabel('fields');
    await fields.fill('title');
    await fields.press('Enter');
    await closeSettings(again);
    await search(page, 'harbour');
    await chips(page).first().waitFor();
    expect(await note.count()).toBe(0);
  });

  it('lists the catalogue again after an index upload through the settings modal', async () => {
    await signIn(page, ADMIN);
    await expect.poll(() => titles(page).then((list) => list[0])).toBe('Summer Tales');
    const file = path.join(tmp, 'arrival.jsonl');
    fs.writeFileSync(file, jsonLines([book(40, 'Newest Arrival', 'Fay Latest', '2026-01-01T00:00:00.000Z')]));

    const dialog = await openSettings(page);
    await dialog.getByLabel('Index file').setInputFiles(file);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByText('total: 1, error: 0').waitFor();

    await expect.poll(() => titles(page).then((list) => list[0])).toBe('Newest Arrival');
    await closeSettings(dialog);
    expect(await heading(page).innerText()).toBe(`${CATALOGUE.length + 1} books found`);
    expect(await cards(page).count()).toBe(10);
  });
});
