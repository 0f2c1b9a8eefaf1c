import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { createAccount, libraryLoaded, type PageWatch, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../server/src/books/fixtures');
const READER = { displayName: 'Ada Lovelace', email: 'ada@example.org', password: 'analytical engine' };

let work: string;
let server: RunningServer;
let browser: Browser;

/** The server follows a copy of the fixture Calibre library with calibre's full-text database beside it. */
beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-e2e-text-'));
  const library = path.join(work, 'Calibre Library');
  fs.cpSync(path.join(FIXTURES, 'library'), library, { recursive: true });
  fs.copyFileSync(path.join(FIXTURES, 'library-full-text/full-text-search.db'), path.join(library, 'full-text-search.db'));
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true', CALIBRE_LIBRARY: library }), launchBrowser()]);
  // The library and its text are read in the background: the field is offered once both are. The
  // first load's transaction holds SQLite's one writer, which a sign-up waits for.
  await libraryLoaded(server.baseUrl);
  const token = await createAccount(server.baseUrl, READER);
  for (const until = Date.now() + 30_000; ; ) {
    const reply = (await (await fetch(`${server.baseUrl}/api/books`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      total?: number;
      text_searchable?: boolean;
    };
    if (reply.total === 6 && reply.text_searchable) break;
    if (Date.now() > until) throw new Error(`the library's text was not read: ${JSON.stringify(reply)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

const cards = (page: Page) => page.locator('article.book-card');

describe("searching the books' text (issue 38), end to end", () => {
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

  it('chooses "Book text" and shows where the words are, the words marked', async () => {
    await signIn(page, READER);
    await cards(page).first().waitFor();
    await page.getByRole('button', { name: 'Advanced Search Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Advanced Search Settings' });
    const fields = dialog.getByLabel('fields');
    await fields.fill('book text');
    await fields.press('Enter');
    await dialog.getByRole('button', { name: 'Remove Book Title' }).click();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('searchbox', { name: 'Search books' }).fill('miserables');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { name: '1 books found' }).waitFor();
    const snippet = cards(page).first().locator('.book-snippet');
    await expect.poll(() => snippet.innerText()).toContain('Les Misérables');
    expect(await snippet.locator('mark').allInnerTexts()).toEqual(['Misérables']);
    expect(await cards(page).first().locator('h3 a').innerText()).toBe('Les Misérables');
  });
});
