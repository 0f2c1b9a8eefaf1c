import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, type PageWatch, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const FIXTURE_LIBRARY = path.resolve(import.meta.dirname, '../../server/src/books/fixtures/library');
const OWNER = { displayName: 'Olive Owner', email: 'olive@example.org', password: 'shelves for the family' };
const MEMBER = { displayName: 'Sam Member', email: 'sam@example.org', password: 'a shelf shared with me' };
const POLL = { timeout: 30_000 };

let work: string;
let server: RunningServer;
let browser: Browser;
let ownerApi: ReturnType<typeof apiAs>;
/** Book ids by title. */
const bookIds: Record<string, string> = {};

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-e2e-shelves-'));
  const library = path.join(work, 'Calibre Library');
  fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true', CALIBRE_LIBRARY: library }), launchBrowser()]);
  for (const until = Date.now() + 30_000; ; ) {
    const health = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as { library?: { last_load: { status: string } | null } };
    if (health.library?.last_load?.status === 'ok') break;
    if (Date.now() > until) throw new Error(`the library was not loaded: ${JSON.stringify(health)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  ownerApi = apiAs(server.baseUrl, await createAccount(server.baseUrl, OWNER));
  await createAccount(server.baseUrl, MEMBER);
  const books = (await (await ownerApi('/api/books?size=100')).json()) as { books: Array<{ id: string; title: string }> };
  for (const book of books.books) bookIds[book.title] = book.id;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

const cardTitles = (page: Page) => page.locator('article.book-card h3 a').allInnerTexts();

describe('shelves (issue 38), end to end', () => {
  const opened: Array<{ context: BrowserContext; seen: PageWatch }> = [];
  async function open(): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    const page = await context.newPage();
    opened.push({ context, seen: await watchForErrors(page, [/status of 401/]) });
    return page;
  }
  afterAll(async () => {
    for (const { context, seen } of opened) {
      await context.close();
      expect(seen.problems).toEqual([]);
    }
  });

  it('moves a book between reading statuses, shares a named shelf, and the member sees it and its OPDS feed', async () => {
    const page = await open();
    await signIn(page, OWNER);

    // The book's page: one reading status at a time.
    await page.goto(`/book/${encodeURIComponent(bookIds['The Globe']!)}`);
    const shelves = page.getByRole('region', { name: 'Shelves of The Globe' });
    await shelves.getByLabel('Reading', { exact: true }).click();
    await expect.poll(() => shelves.getByLabel('Reading', { exact: true }).isChecked(), POLL).toBe(true);
    await shelves.getByLabel('Read', { exact: true }).click();
    await expect.poll(() => shelves.getByLabel('Read', { exact: true }).isChecked(), POLL).toBe(true);
    await expect.poll(() => shelves.getByLabel('Reading', { exact: true }).isChecked(), POLL).toBe(false);

    // A named shelf, shared with the member to see.
    await page.locator('#nav-shelves').click();
    await page.getByLabel('New shelf').fill('Family reading');
    await page.locator('#shelf-create').click();
    await page.locator('#my-shelves').getByRole('link', { name: 'Family reading' }).click();
    await page.locator('#shelf-name').getByText('Family reading').waitFor();
    await page.locator('#shelf-empty').waitFor();
    await page.locator('#shelf-sharing summary').click();
    await page.getByLabel('Sam Member').selectOption('see');
    await page.locator('#shelf-share-save').click();
    await page.locator('#shelf-share-saved').waitFor();
    await expect.poll(() => page.locator('#shelf-sharing summary').innerText(), POLL).toBe('Shared with Sam Member');

    // A card's menu puts a book on it.
    await page.goto('/book');
    await page.getByRole('searchbox', { name: 'Search books' }).fill('discworld');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => cardTitles(page), POLL).toEqual(['The Science of Discworld']);
    await page.getByRole('button', { name: 'Shelves of The Science of Discworld' }).click();
    await page.locator('.shelf-menu').getByLabel('Family reading').click();
    await expect.poll(() => page.locator('.shelf-menu').getByLabel('Family reading').isChecked(), POLL).toBe(true);

    // The shelf's page shows it as the books page does, with how far the owner has read it.
    const saved = await ownerApi(`/api/books/${encodeURIComponent(bookIds['The Science of Discworld']!)}/position`, 'PUT', { percentage: 0.42, device: 'Test' });
    expect(saved.status).toBe(200);
    await page.locator('#nav-shelves').click();
    await page.locator('#my-shelves').getByRole('link', { name: 'Family reading' }).click();
    await expect.poll(() => cardTitles(page), POLL).toEqual(['The Science of Discworld']);
    await expect.poll(() => page.locator('article.book-card .book-progress').allInnerTexts(), POLL).toEqual(['42 % read']);
    const shelfId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.goto('/shelf');
    const readShelf = page.locator('#my-shelves li').filter({ has: page.getByRole('link', { name: 'Read', exact: true }) });
    await expect.poll(() => readShelf.innerText(), POLL).toContain('1 book');

    // The member, in a browser of their own, sees the shared shelf and may not add to it.
    const member = await open();
    await signIn(member, MEMBER);
    await member.locator('#nav-shelves').click();
    const shared = member.locator('#shared-shelves');
    await expect.poll(() => shared.innerText(), POLL).toContain('Olive Owner');
    await shared.getByRole('link', { name: 'Family reading' }).click();
    await member.locator('#shelf-owner').getByText('shared by Olive Owner').waitFor();
    await expect.poll(() => cardTitles(member), POLL).toEqual(['The Science of Discworld']);
    expect(await member.locator('#shelf-rename').count()).toBe(0);
    await member.goto(`/book/${encodeURIComponent(bookIds['Les Misérables']!)}`);
    const memberShelves = member.getByRole('region', { name: 'Shelves of Les Misérables' });
    await memberShelves.getByLabel('Want to read', { exact: true }).waitFor();
    expect(await memberShelves.getByLabel(/Family reading/).count()).toBe(0);

    // Its OPDS feed, as the member's e-reader reads it.
    const basic = `Basic ${Buffer.from(`${MEMBER.email}:${MEMBER.password}`).toString('base64')}`;
    const listing = await fetch(`${server.baseUrl}/opds/shelves`, { headers: { authorization: basic } });
    expect(listing.status).toBe(200);
    expect(await listing.text()).toContain('Family reading (Olive Owner)');
    const feed = await fetch(`${server.baseUrl}/opds/shelves/${encodeURIComponent(shelfId)}`, { headers: { authorization: basic } });
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('application/atom+xml;profile=opds-catalog;kind=acquisition;charset=utf-8');
    const xml = await feed.text();
    expect(xml).toContain('<title>The Science of Discworld</title>');
    expect(xml).not.toContain('The Globe');
  });
});
