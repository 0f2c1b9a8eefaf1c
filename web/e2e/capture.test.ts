import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { html, type PageServer, startPageServer } from '../../server/src/test/page-server.ts';
import { launchBrowser } from './browser.ts';
import { createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const OWNER = { displayName: 'Ada Lovelace', email: 'ada@example.org', password: 'analytical engine notes' };
const ARTICLE_TITLE = 'A page worth keeping';

let server: RunningServer;
let browser: Browser;
/** Pages on "other sites", where the bookmarklet is pressed and whose titles the server reads. */
let site: PageServer;

beforeAll(async () => {
  // The test's pages are on loopback, which the page preview refuses unless told otherwise.
  [server, browser, site] = await Promise.all([
    startServer({ ALLOW_SIGNUP: 'true', PREVIEW_ALLOW_PRIVATE: 'true' }),
    launchBrowser(),
    startPageServer({
      '/article': html(`<html><head><title>${ARTICLE_TITLE}</title></head><body><p id="quote">Worth quoting here</p></body></html>`),
      '/described': html('<head><title>Described elsewhere</title><meta name="description" content="Read by the server"></head>'),
      '/favicon.ico': (_request, response) => response.writeHead(204).end(),
    }),
  ]);
  await createAccount(server.baseUrl, OWNER);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await site?.close();
});

/** The index check of a bookmark not yet indexed is a 404 (docs/behaviour/bookmarks.md). */
const EXPECTED_ERRORS = [/status of 404/];

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

describe('bookmarks from anywhere, end to end', () => {
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

  /** Presses the bookmarklet (as copied from the bookmark page) on `page`, with `text` selected; the popup it opens. */
  async function pressBookmarklet(code: string, on: Page, text: string): Promise<Page> {
    await on.evaluate((selector) => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector(selector)!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
    }, text);
    const popup = on.waitForEvent('popup');
    await on.evaluate(decodeURIComponent(code.slice('javascript:'.length)));
    const opened = await popup;
    await opened.waitForURL((url) => url.pathname === '/bookmark/create');
    return opened;
  }

  it('saves the page the bookmarklet was pressed on, from its popup, and then says it is saved', async () => {
    await page.goto('/bookmark');
    const bookmarklet = page.getByRole('link', { name: 'Save to Organiser' });
    const code = (await bookmarklet.getAttribute('href')) ?? '';
    expect(code.startsWith('javascript:')).toBe(true);
    expect(decodeURIComponent(code)).toContain(`${server.baseUrl}/bookmark/create?`);

    const article = await context.newPage();
    await article.goto(`${site.origin}/article`);
    const popup = await pressBookmarklet(code, article, '#quote');
    await expect.poll(() => field(popup, 'Title').inputValue()).toBe(ARTICLE_TITLE);
    expect(await field(popup, 'Link').inputValue()).toBe(`${site.origin}/article`);
    expect(await field(popup, 'Note').inputValue()).toBe('Worth quoting here');
    await popup.getByRole('button', { name: 'Create' }).click();
    await popup.waitForURL(/\/bookmark\/\d+$/);
    const id = new URL(popup.url()).pathname.split('/').pop();
    await popup.close();

    await page.goto('/bookmark');
    await expect.poll(() => page.locator('article.bookmark-card h3 a[target="_blank"]').allInnerTexts()).toContain(ARTICLE_TITLE);

    const again = await pressBookmarklet(code, article, '#quote');
    const notice = again.locator('#bookmark-already-saved');
    await notice.waitFor();
    expect(await notice.innerText()).toBe(`Already saved: ${ARTICLE_TITLE}`);
    expect(await notice.getByRole('link').getAttribute('href')).toBe(`/bookmark/${id}`);
  });

  it('opened with a link alone, takes the title and description from the page', async () => {
    await page.goto(`/bookmark/create?${new URLSearchParams({ url: `${site.origin}/described` })}`);
    await expect.poll(() => field(page, 'Title').inputValue()).toBe('Described elsewhere');
    expect(await field(page, 'Note').inputValue()).toBe('Read by the server');
    expect(await page.locator('#bookmark-already-saved').count()).toBe(0);
  });

  it('makes an API token in the profile, shown once, that a script adds a bookmark with until it is revoked', async () => {
    await page.goto('/profile');
    await field(page, 'Token name').fill('Reading list script');
    await field(page, 'Access').selectOption('write');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.locator('#api-token-value').innerText();
    expect(token).toMatch(/^org_/);

    const save = () =>
      fetch(`${server.baseUrl}/bookmarks/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Added by a script', link: 'https://example.org/from-a-script', tags: 'script' }),
      });
    expect((await save()).status).toBe(200);

    await page.reload();
    await page.locator('#api-token-list').getByText('Reading list script').waitFor();
    expect(await page.locator('#api-token-value').count()).toBe(0);
    expect(await page.content()).not.toContain(token);

    await page.goto('/bookmark');
    await expect.poll(() => page.locator('article.bookmark-card h3 a[target="_blank"]').allInnerTexts()).toContain('Added by a script');

    await page.goto('/profile');
    await page.getByRole('button', { name: 'Revoke Reading list script' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No API tokens').waitFor();
    expect((await save()).status).toBe(401);
  });
});
