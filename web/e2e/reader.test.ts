import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, libraryLoaded, type PageWatch, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const FIXTURE_LIBRARY = path.resolve(import.meta.dirname, '../../server/src/books/fixtures/library');
const HOSTILE_EPUB = path.resolve(import.meta.dirname, 'fixtures/hostile-epub/hostile.epub');
/** Twelve chapters calibre made (fixtures/long-book): the fixture library's own books are a page long. */
const LONG_BOOK = path.resolve(import.meta.dirname, 'fixtures/long-book');
const READER = { displayName: 'Ursula Le Guin', email: 'ursula@example.org', password: 'left hand of darkness' };
/** The fixture library's books (calibre's ids): the EPUB and PDF of one made long here, a comic, and the one made hostile here. */
const DISCWORLD = '1';
const HOSTILE = '3';
const NEMO = '4';
/** A book only "Continue reading" touches: its position is saved through the API. */
const GLOBE = '2';
/** The e2e helper's poll: a page under load may take its time. */
const POLL = { timeout: 30_000 };

let work: string;
let server: RunningServer;
let browser: Browser;
let api: ReturnType<typeof apiAs>;

/**
 * The server follows a copy of the fixture library, in which The Science of Discworld's EPUB and
 * PDF are the long book's, and Les Misérables's EPUB is the hostile book (fixtures/hostile-epub:
 * scripts, handlers and remote resources of every kind).
 */
beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-e2e-reader-'));
  const library = path.join(work, 'Calibre Library');
  fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
  const discworld = path.join(library, 'Terry Pratchett/The Science of Discworld (1)/The Science of Discworld - Terry Pratchett');
  fs.copyFileSync(path.join(LONG_BOOK, 'long-book.epub'), `${discworld}.epub`);
  fs.copyFileSync(path.join(LONG_BOOK, 'long-book.pdf'), `${discworld}.pdf`);
  fs.copyFileSync(HOSTILE_EPUB, path.join(library, 'Victor Hugo/Les Miserables (3)/Les Miserables - Victor Hugo.epub'));
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true', CALIBRE_LIBRARY: library }), launchBrowser()]);
  api = apiAs(server.baseUrl, await createAccount(server.baseUrl, READER));
  await libraryLoaded(server.baseUrl);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A signed-in browser of its own, at 390 px wide (a phone), watched for script errors and CSP refusals. */
async function signedInPage(expected: RegExp[] = []): Promise<{ context: BrowserContext; page: Page; seen: PageWatch }> {
  const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 390, height: 844 }, hasTouch: true });
  const page = await context.newPage();
  const seen = await watchForErrors(page, expected);
  await signIn(page, READER);
  return { context, page, seen };
}

const reader = (page: Page) => page.locator('#reader');
const locatorShown = (page: Page) => reader(page).getAttribute('data-locator');
const whereShown = (page: Page) => page.locator('.reader-where').innerText();

/** The text of every frame of the page: the book's sections are frames in foliate-js's closed shadow root, beyond CSS selectors. */
const framesText = (page: Page) => Promise.all(page.frames().map((frame) => frame.evaluate(() => document.body?.innerText ?? '').catch(() => ''))).then((texts) => texts.join('\n'));

async function savedPosition(bookId: string): Promise<{ locator: string | null; percentage: number } | null> {
  const reply = await api(`/api/books/${bookId}/position`);
  expect(reply.status).toBe(200);
  return (await reply.json()) as { locator: string | null; percentage: number } | null;
}

describe('the reader', () => {
  it('opens an EPUB from the book page, turns its pages with the keys, and another browser opens where it was left', async () => {
    const { context, page, seen } = await signedInPage();
    await page.goto(`/book/${DISCWORLD}`);
    await page.getByRole('link', { name: 'Read', exact: true }).click();
    await page.waitForURL(`**/book/${DISCWORLD}/read/epub`);
    await expect.poll(() => locatorShown(page), POLL).toMatch(/^epubcfi\(/);
    const opened = await locatorShown(page);

    await page.getByRole('button', { name: 'Contents' }).click();
    const entries = page.getByRole('navigation', { name: 'Table of contents' }).getByRole('button');
    await expect.poll(() => entries.count(), POLL).toBeGreaterThan(2);
    await entries.nth(2).click();
    await expect.poll(() => locatorShown(page), POLL).not.toBe(opened);
    for (let turn = 0; turn < 3; turn += 1) {
      const before = await locatorShown(page);
      // A key pressed while foliate-js still moves to the chapter turns nothing, as it would for a person: pressed again then.
      await expect
        .poll(async () => {
          if ((await locatorShown(page)) === before) await page.keyboard.press('ArrowRight');
          return locatorShown(page);
        }, { ...POLL, interval: 500 })
        .not.toBe(before);
    }
    expect(await whereShown(page)).toMatch(/^\d+ %/);
    // Saved as the pages turn, not only as the tab closes: what the page shows is what the server keeps.
    await expect.poll(async () => (await savedPosition(DISCWORLD))?.locator === (await locatorShown(page)), POLL).toBe(true);
    const left = await locatorShown(page);
    expect(left).not.toBe(opened);
    const saved = await savedPosition(DISCWORLD);
    expect(saved?.percentage).toBeGreaterThan(0);

    const other = await signedInPage();
    await other.page.goto(`/book/${DISCWORLD}`);
    await expect.poll(() => other.page.locator('.book-progress').innerText(), POLL).toBe(`${Math.round((saved?.percentage ?? 0) * 100)} % read`);
    await other.page.getByRole('link', { name: 'Read', exact: true }).click();
    await expect.poll(() => locatorShown(other.page), POLL).toBe(left);
    await other.context.close();
    await context.close();
    expect(seen.problems).toEqual([]);
    expect(other.seen.problems).toEqual([]);
  });

  it('reads a PDF by ranges, page by page with keys and swipes, and opens it on the page left in another browser', async () => {
    const { context, page, seen } = await signedInPage();
    const fileReplies: Array<{ status: number; range: string | undefined }> = [];
    page.on('response', (response) => {
      if (response.url().endsWith(`/api/books/${DISCWORLD}/file/pdf`)) fileReplies.push({ status: response.status(), range: response.request().headers().range });
    });
    await page.goto(`/book/${DISCWORLD}`);
    await page.getByRole('link', { name: 'Read PDF' }).click();
    await expect.poll(() => whereShown(page), POLL).toMatch(/^0 % · Page 1 of (\d\d+)$/);
    await page.locator('canvas[data-rendered="1"]').waitFor();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => locatorShown(page), POLL).toBe('2');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => locatorShown(page), POLL).toBe('3');
    // A swipe to the left, as a finger turns the page.
    await page.locator('.reader-main').dispatchEvent('touchstart', { touches: [{ identifier: 1, clientX: 300, clientY: 400 }] });
    await page.locator('.reader-main').dispatchEvent('touchend', { changedTouches: [{ identifier: 1, clientX: 100, clientY: 400 }] });
    await expect.poll(() => locatorShown(page), POLL).toBe('4');
    await page.locator('canvas[data-rendered="4"]').waitFor();
    expect(fileReplies.length).toBeGreaterThan(0);
    expect(fileReplies.every((reply) => reply.status === 206 && /^bytes=\d+-\d+$/.test(reply.range ?? ''))).toBe(true);
    await expect.poll(async () => (await savedPosition(DISCWORLD))?.locator, POLL).toBe('4');

    const other = await signedInPage();
    await other.page.goto(`/book/${DISCWORLD}/read/pdf`);
    await expect.poll(() => locatorShown(other.page), POLL).toBe('4');
    await other.page.locator('canvas[data-rendered="4"]').waitFor();
    await other.context.close();
    await context.close();
    expect(seen.problems).toEqual([]);
    expect(other.seen.problems).toEqual([]);
  });

  it('shows "Continue reading" on the books page, and how far each card\'s book is read', async () => {
    const saved = await api(`/api/books/${GLOBE}/position`, 'PUT', { percentage: 0.42, locator: null, device: 'e2e' });
    expect(saved.status).toBe(200);
    const { title } = (await (await api(`/api/books/${GLOBE}`)).json()) as { title: string };
    const { context, page, seen } = await signedInPage();
    await page.goto('/');
    const continuing = page.getByRole('region', { name: 'Continue reading' });
    // The newest position first: the one just saved, before the EPUB read above.
    await expect.poll(async () => (await continuing.getByRole('listitem').first().innerText()).replace(/\s+/g, ' '), POLL).toBe(`${title} · 42 %`);
    const card = page.getByRole('article').filter({ has: page.getByRole('link', { name: title, exact: true }) });
    await expect.poll(() => card.locator('.book-progress').innerText(), POLL).toBe('42 % read');
    await continuing.getByRole('link', { name: title, exact: true }).click();
    await page.waitForURL(`**/book/${GLOBE}`);
    await context.close();
    expect(seen.problems).toEqual([]);
  });

  it('opens a comic book archive', async () => {
    const { context, page, seen } = await signedInPage();
    await page.goto(`/book/${NEMO}/read/cbz`);
    await expect.poll(() => locatorShown(page), POLL).toMatch(/^epubcfi\(/);
    await context.close();
    expect(seen.problems).toEqual([]);
  });

  it('shows a hostile EPUB, whose scripts, handlers and remote resources neither run nor reach the network', async () => {
    // The book's own attempts are refused by the CSP, and the browser says so: those refusals are expected.
    const { context, page, seen } = await signedInPage([/Content Security Policy|CSP violation|hostile\.invalid|net::ERR_/]);
    // Chromium reports a request that the CSP then refuses (it fails with "csp"); a request that
    // left the browser would reach this route, which answers it, so that nothing waits on DNS.
    const asked: string[] = [];
    const refused: string[] = [];
    const reached: string[] = [];
    const elsewhere = (url: string) => !url.startsWith(server.baseUrl) && !url.startsWith('blob:') && !url.startsWith('data:');
    context.on('request', (request) => elsewhere(request.url()) && asked.push(request.url()));
    context.on('requestfailed', (request) => elsewhere(request.url()) && request.failure()?.errorText === 'csp' && refused.push(request.url()));
    await context.route(
      (url) => elsewhere(url.href),
      (route) => {
        reached.push(route.request().url());
        return route.fulfill({ status: 200, body: '' });
      },
    );
    await page.goto(`/book/${HOSTILE}/read/epub`);
    await expect.poll(() => framesText(page), POLL).toContain('This hostile book shows its first page and runs nothing.');
    // The second section runs its traps as it loads: the page turned to it, and back.
    await page.getByRole('button', { name: 'Contents' }).click();
    await page.getByRole('navigation', { name: 'Table of contents' }).getByRole('button', { name: 'The second trap' }).click();
    await expect.poll(() => framesText(page), POLL).toContain('The second page of the hostile book.');
    // Every frame has loaded by now; a script that were to run would have.
    const marks = await Promise.all(page.frames().map((frame) => frame.evaluate(() => (window as { hostileRan?: string }).hostileRan ?? null).catch(() => null)));
    expect(marks).toEqual(page.frames().map(() => null));
    expect(reached).toEqual([]);
    await expect.poll(() => refused.toSorted(), POLL).toEqual(asked.toSorted());
    expect(seen.dialogs).toEqual([]);
    await context.close();
  });
});
