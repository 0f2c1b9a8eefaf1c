import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { html, type PageServer, startPageServer } from '../../server/src/test/page-server.ts';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const OWNER = { displayName: 'Grace Hopper', email: 'grace@example.org', password: 'a compiler for the rest of us' };
const TITLE = 'The article kept to read later';
const paragraphs = Array.from({ length: 30 }, (_, i) => `<p>Paragraph ${i + 1} of the kept article says something worth reading twice.</p>`).join('');
/** Every way a page may try to run something: each would ask the page server for /beacon. */
const ARTICLE = `<!doctype html><html><head><title>${TITLE}</title><script>fetch('/beacon?head')</script></head>
<body onload="fetch('/beacon?onload')"><article><h1>${TITLE}</h1>${paragraphs}
<img src="/missing.png" onerror="fetch('/beacon?onerror')" alt="broken">
<p onmouseover="fetch('/beacon?hover')">The last paragraph, and the end of the article.</p>
<script>fetch('/beacon?body')</script></article></body></html>`;

let server: RunningServer;
let browser: Browser;
let site: PageServer;
let owner: ReturnType<typeof apiAs>;
const beacons: string[] = [];

beforeAll(async () => {
  // The article is on loopback, which the server visits only with PREVIEW_ALLOW_PRIVATE.
  [server, browser, site] = await Promise.all([
    startServer({ ALLOW_SIGNUP: 'true', PREVIEW_ALLOW_PRIVATE: 'true' }),
    launchBrowser(),
    startPageServer({
      '/article': html(ARTICLE),
      // Behind a sign-in, as far as the server can tell: only a browser is shown the article.
      '/members': (request, response) => {
        if (request.headers['user-agent']?.startsWith('Organiser')) response.writeHead(403, { 'content-type': 'text/html' }).end('<title>Sign in</title>');
        else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><head><title>Members only</title></head><body><article><h1>Members only</h1>${paragraphs.replaceAll('kept article', 'members article')}</article></body></html>`);
      },
      '/beacon': (request, response) => {
        beacons.push(request.url ?? '');
        response.writeHead(204).end();
      },
    }),
  ]);
  owner = apiAs(server.baseUrl, await createAccount(server.baseUrl, OWNER));
  expect((await owner('/api/users/me/e-readers', 'POST', { name: 'Kindle', email: 'grace@kindle.com', kind: 'kindle' })).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await site?.close();
});

/** The index check of a bookmark not yet indexed is a 404 (docs/behaviour/bookmarks.md). */
const EXPECTED_ERRORS = [/status of 404/];

describe('kept pages, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl });
    page = await context.newPage();
    problems = (await watchForErrors(page, EXPECTED_ERRORS)).problems;
    await signIn(page, OWNER);
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  it('keeps a saved page and shows it in the reader view, inert, light or dark, to its end', async () => {
    await page.goto(`/bookmark/create?${new URLSearchParams({ url: `${site.origin}/article`, title: TITLE })}`);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/bookmark\/\d+$/);
    const id = new URL(page.url()).pathname.split('/').pop();

    await page.goto('/bookmark');
    const card = page.locator(`article.bookmark-card[data-id="${id}"]`);
    // The list asks again while the copy is fetched.
    await card.getByRole('link', { name: 'Read', exact: true }).waitFor();
    expect(await card.locator('.kept-copy-time').innerText()).toBe('1 min read');
    await card.getByRole('link', { name: 'Read', exact: true }).click();
    await page.waitForURL(`/bookmark/${id}/read`);

    const frame = page.locator('iframe.reader-view-frame');
    expect(await frame.getAttribute('sandbox')).not.toContain('allow-scripts');
    const kept = page.frameLocator('iframe.reader-view-frame');
    await kept.getByText('Paragraph 30 of the kept article').waitFor();
    expect(await kept.locator('h1').innerText()).toBe(TITLE);
    expect(await kept.locator('script, [onload], [onerror], [onmouseover]').count()).toBe(0);
    // The frame is as tall as the page, which is taller than the window: not finished yet.
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(page.viewportSize()?.height ?? 0);
    expect(await page.locator('#reader-finished').count()).toBe(0);
    const stateOf = async () => ((await (await owner(`/bookmarks/${id}`)).json()) as { state: string }).state;
    expect(await stateOf()).toBe('unread');
    await kept.getByText('The last paragraph').hover();

    await page.getByRole('button', { name: 'Dark' }).click();
    await expect.poll(() => kept.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.getByRole('button', { name: 'Larger text' }).click();
    await expect.poll(() => kept.locator('html').getAttribute('style')).toContain('font-size: 115%');

    await page.locator('.reader-view-end').scrollIntoViewIfNeeded();
    await page.locator('#reader-finished').waitFor();
    // Read to its end, the bookmark is read.
    await expect.poll(stateOf).toBe('read');

    // Nothing of the page ran: neither in the reader nor when the server read it.
    expect(beacons).toEqual([]);

    // The copy as an EPUB, to the e-reader: this server has no mail server, so it goes to the outbox.
    await page.getByRole('button', { name: 'Send to e-reader' }).click();
    await expect.poll(() => page.locator('#article-send-result').innerText()).toMatch(/^Kept for Kindle in the server’s outbox: EPUB \(\d+(\.\d+)? kB\)/);

    await page.getByRole('link', { name: '← Bookmark' }).click();
    await page.waitForURL(`/bookmark/${id}`);
    await page.locator('.kept-copy').getByRole('link', { name: 'Read', exact: true }).waitFor();
  });

  it('keeps the page the bookmarklet was pressed on as the browser has it, for a page the server is refused', async () => {
    await page.goto('/bookmark');
    const code = (await page.getByRole('link', { name: 'Save to Organiser' }).getAttribute('href')) ?? '';
    const members = await context.newPage();
    await members.goto(`${site.origin}/members`);
    const opened = members.waitForEvent('popup');
    await members.evaluate(decodeURIComponent(code.slice('javascript:'.length)));
    const popup = await opened;
    await popup.locator('#bookmark-page-captured').waitFor();
    await popup.getByRole('button', { name: 'Create' }).click();
    await popup.waitForURL(/\/bookmark\/\d+$/);
    const id = new URL(popup.url()).pathname.split('/').pop();
    await popup.close();

    await page.goto(`/bookmark/${id}/read`);
    await page.frameLocator('iframe.reader-view-frame').getByText('Paragraph 30 of the members article').waitFor();
  });

  it('finds a bookmark by words only in its kept page, with where they are, unless Page Text is left out', async () => {
    await page.goto(`/bookmark/create?${new URLSearchParams({ url: `${site.origin}/article?again`, title: 'Found by its page' })}`);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/bookmark\/\d+$/);
    await page.getByText('Indexed', { exact: true }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop();
    await page.locator('.kept-copy').getByRole('link', { name: 'Read', exact: true }).waitFor();

    await page.goto('/bookmark/query');
    await page.getByRole('searchbox', { name: 'Key words' }).fill('worth twice');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const card = page.locator(`article.bookmark-card[data-id="${id}"]`);
    const snippet = card.getByLabel("Found in the kept page's text");
    await snippet.waitFor();
    expect(new Set(await snippet.locator('mark').allInnerTexts())).toEqual(new Set(['worth', 'twice']));
    expect(await snippet.innerText()).toContain('Paragraph 1 of the kept article says something worth reading twice.');

    await page.getByRole('button', { name: 'Advanced Search Configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Advanced Search Configuration' });
    await dialog.getByLabel('fields to search').click();
    expect(await dialog.getByRole('option').allInnerTexts()).toEqual(['Page Title', 'Page Link', 'Note', 'Page Tag', 'Page Text']);
    await dialog.getByRole('option', { name: 'Page Title' }).click();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'No bookmark found' }).waitFor();
  });
});
