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

let work: string;
let server: RunningServer;
let browser: Browser;

/** The server follows a copy of the fixture Calibre library: the catalogue comes from the folder, not an upload. */
beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-e2e-library-'));
  const library = path.join(work, 'Calibre Library');
  fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true', CALIBRE_LIBRARY: library }), launchBrowser()]);
  await createAccount(server.baseUrl, READER);
  await libraryLoaded(server.baseUrl);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search books' }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

describe('what Calibre has beyond the book’s first fields, end to end', () => {
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

  it('shows series and tags on the card, and series, tags, languages, rating and identifiers on the detail page', async () => {
    await signIn(page, READER);
    await search(page, 'science of discworld');
    const card = page.locator('article.book-card').filter({ hasText: 'The Science of Discworld' }).first();
    await card.waitFor();
    expect(await card.locator('.book-series').innerText()).toBe('The Science of Discworld [1]');
    expect(await card.locator('.book-tags .badge').allInnerTexts()).toEqual(['Science', 'Fantasy']);

    await card.locator('h3 a').click();
    await page.getByRole('heading', { level: 1, name: 'The Science of Discworld' }).waitFor();
    const fields = page.locator('#book-detail dl.book-calibre-fields');
    const rows = Object.fromEntries(
      await fields.locator('dt').evaluateAll((terms) => terms.map((term) => [term.textContent, term.nextElementSibling?.textContent])),
    );
    expect(rows).toEqual({
      Series: 'The Science of Discworld [1]',
      Tags: 'ScienceFantasy',
      Languages: 'eng',
      Rating: '★★★★☆',
      'Other identifiers': 'goodreads:833550',
    });
    await fields.getByLabel('4 of 5 stars').waitFor();
    await page.locator('#book-detail').getByText('isbn:9780091865153', { exact: true }).waitFor();
  });

  it('finds a book by a tag in a search of every field, and leaves out the rows a book does not have', async () => {
    await signIn(page, READER);
    await page.getByRole('button', { name: 'Advanced Search Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Advanced Search Settings' });
    const fieldsSelect = dialog.getByRole('combobox').first();
    for (const option of ['File Name', 'Comment', 'Author Name']) {
      await fieldsSelect.click();
      await page.getByRole('option', { name: option, exact: true }).click();
    }
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await search(page, 'comics');
    const card = page.locator('article.book-card');
    await card.filter({ hasText: 'Little Nemo in Slumberland' }).waitFor();
    expect(await card.count()).toBe(1);
    expect(await card.locator('.book-series').innerText()).toBe('Little Nemo [1.5]');

    await page.goto('/book/5');
    await page.getByRole('heading', { level: 1, name: 'Fräulein Else' }).waitFor();
    const terms = await page.locator('#book-detail dt').allInnerTexts();
    expect(terms).toEqual([]);
    await page.locator('#book-detail').getByText('isbn:9783150087206', { exact: true }).waitFor();
  });

  it('shows the cover on the book page and small covers on the cards, and downloads a format', async () => {
    await signIn(page, READER);
    await search(page, 'the');
    // By its title: The Globe's series is The Science of Discworld too.
    const card = page.locator('article.book-card').filter({ has: page.getByRole('link', { name: 'The Science of Discworld', exact: true }) });
    const thumbnail = card.locator('.book-thumbnail img');
    await thumbnail.waitFor();
    await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(160);
    const box = await card.locator('.book-thumbnail').boundingBox();
    expect(box).toMatchObject({ width: 80, height: 120 });

    await card.locator('h3 a').click();
    await page.getByRole('heading', { level: 1, name: 'The Science of Discworld' }).waitFor();
    const cover = page.getByRole('img', { name: 'Cover of The Science of Discworld' });
    await cover.waitFor();
    await expect.poll(() => cover.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1200);
    const buttons = page.locator('#book-detail .book-downloads button');
    expect(await buttons.evaluateAll((found) => found.map((button) => button.firstChild?.textContent))).toEqual(['Download EPUB', 'Download PDF']);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^Download PDF/ }).click()]);
    expect(download.suggestedFilename()).toBe('The Science of Discworld - Terry Pratchett & Ian Stewart & Jack Cohen.pdf');
    const saved = path.join(work, 'saved.pdf');
    await download.saveAs(saved);
    const original = path.join(FIXTURE_LIBRARY, 'Terry Pratchett/The Science of Discworld (1)/The Science of Discworld - Terry Pratchett.pdf');
    expect(fs.readFileSync(saved).equals(fs.readFileSync(original))).toBe(true);
  });

  it('shows no cover and no download for a book without them', async () => {
    await signIn(page, READER);
    await page.goto('/book/5');
    await page.getByRole('heading', { level: 1, name: 'Fräulein Else' }).waitFor();
    await page.locator('#book-detail').getByText('isbn:9783150087206', { exact: true }).waitFor();
    expect(await page.locator('#book-detail img').count()).toBe(0);
    expect(await page.locator('#book-detail .book-downloads').count()).toBe(0);
  });
});
