import http from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const ADMIN = { displayName: 'Ada Lovelace', email: 'ada@example.org', password: 'analytical engine' };
const LIBRARY = path.resolve(import.meta.dirname, '../../server/src/books/fixtures/calibre/library.json');
/** docs/budgets.md, "web": the first page's script as sent, and its script and style sheets together. */
const FIRST_PAGE_JS_BUDGET = 200_000;
const FIRST_PAGE_JS_AND_CSS_BUDGET = 260_000;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const idToken = await createAccount(server.baseUrl, ADMIN);
  const upload = new FormData();
  upload.append('name', 'replace');
  upload.append('file', new Blob([await import('node:fs').then((fs) => fs.readFileSync(LIBRARY))]), 'library.json');
  const loaded = await fetch(`${server.baseUrl}/api/books/index`, { method: 'POST', headers: { authorization: `Bearer ${idToken}` }, body: upload });
  expect(loaded.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A signed-in person's browser, its session saved as a visit leaves it; a context of its own has an empty HTTP cache. */
async function signedInState(): Promise<Awaited<ReturnType<BrowserContext['storageState']>>> {
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  await signIn(page, ADMIN);
  // Leaves the app, which saves its state as the page goes.
  await page.goto('/api/health');
  const state = await context.storageState();
  await context.close();
  return state;
}

/** Each script and style sheet the page loaded: its size as sent (compressed) and as it is. */
function loadedAssets(page: Page) {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry as PerformanceResourceTiming)
      .filter((entry) => /\.(js|css)$/.test(new URL(entry.name).pathname))
      .map((entry) => ({ url: entry.name, sent: entry.encodedBodySize, decoded: entry.decodedBodySize })),
  );
}

/** The reply's headers to a GET with these request headers, as sent: node's fetch would decompress the body and may change Accept-Encoding. */
function headersOf(url: string, headers: Record<string, string>): Promise<http.IncomingHttpHeaders> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        response.resume();
        resolve(response.headers);
      })
      .on('error', reject);
  });
}

describe('the first page', () => {
  it('is sent compressed, under the budget: the scripts and style sheets of /book as Chromium received them', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, storageState: await signedInState() });
    const page = await context.newPage();
    const { problems } = await watchForErrors(page);
    const encodings = new Map<string, string | undefined>();
    page.on('response', (response) => encodings.set(response.url(), response.headers()['content-encoding']));

    await page.goto('/book');
    // The event streams it keeps open never let the network go idle: the page is loaded once its cards show.
    await page.locator('article.book-card').first().waitFor();
    await page.waitForLoadState('load');

    const assets = await loadedAssets(page);
    const sum = (which: RegExp, size: 'sent' | 'decoded') =>
      assets.filter((asset) => which.test(asset.url)).reduce((total, asset) => total + asset[size], 0);
    const js = sum(/\.js$/, 'sent');
    const css = sum(/\.css$/, 'sent');
    console.log(
      `first page: ${assets.length} files, JS ${js} B sent (${sum(/\.js$/, 'decoded')} B decoded), CSS ${css} B sent (${sum(/\.css$/, 'decoded')} B decoded)`,
    );
    // A file of a few hundred bytes may come out no smaller compressed, and is then sent as it is.
    for (const asset of assets.filter((one) => one.decoded > 1024)) {
      expect([asset.url, encodings.get(asset.url)]).toEqual([asset.url, expect.stringMatching(/^(br|gzip)$/)]);
    }
    expect(js).toBeLessThanOrEqual(FIRST_PAGE_JS_BUDGET);
    expect(js + css).toBeLessThanOrEqual(FIRST_PAGE_JS_AND_CSS_BUDGET);

    // A browser that takes gzip alone (Brotli is sent only where the browser asks for it) gets the same files within the budget too.
    const gzipped = await Promise.all(
      assets.map(async (asset) => {
        const headers = await headersOf(asset.url, { 'accept-encoding': 'gzip' });
        if (asset.decoded > 1024) expect([asset.url, headers['content-encoding']]).toEqual([asset.url, 'gzip']);
        return { url: asset.url, sent: Number(headers['content-length']) };
      }),
    );
    const gzippedJs = gzipped.filter((asset) => asset.url.endsWith('.js')).reduce((total, asset) => total + asset.sent, 0);
    console.log(`first page with gzip: JS ${gzippedJs} B`);
    expect(gzippedJs).toBeLessThanOrEqual(FIRST_PAGE_JS_BUDGET);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('after a pause longer than the token lives, refreshes first: no call is refused with 401', async () => {
    const state = await signedInState();
    // The saved token as a visit more than 15 minutes after the last finds it: expired by its own
    // claims (and so refused by the server, its signature no longer matching).
    const origin = state.origins.find((one) => one.origin === server.baseUrl)!;
    const saved = origin.localStorage.find((item) => item.name === 'organiser.state')!;
    const app = JSON.parse(saved.value) as { auth: { idToken: string } };
    const [header, claims, signature] = app.auth.idToken.split('.') as [string, string, string];
    const times = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { iat: number; exp: number };
    const ago = Math.floor(Date.now() / 1000) - 20 * 60;
    const expired = { ...times, iat: ago - (times.exp - times.iat), exp: ago };
    app.auth.idToken = [header, Buffer.from(JSON.stringify(expired)).toString('base64url'), signature].join('.');
    saved.value = JSON.stringify(app);

    const context = await browser.newContext({ baseURL: server.baseUrl, storageState: state });
    const page = await context.newPage();
    const { problems } = await watchForErrors(page);
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 401) refused.push(`${response.request().method()} ${response.url()}`);
    });

    await page.goto('/book');
    await page.locator('article.book-card').first().waitFor();
    await page.goto('/task');
    await page.getByRole('heading', { name: 'No task found' }).waitFor();

    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
    expect(page.url()).toBe(`${server.baseUrl}/task`);
    await context.close();
  });

  it('is installable: a web app manifest with 192 and 512 pixel icons, standalone, that Chromium reads without error', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    const page = await context.newPage();
    const { problems } = await watchForErrors(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in' }).waitFor();

    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string };
    expect(manifest.url).toBe(`${server.baseUrl}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const data = JSON.parse(manifest.data ?? '{}') as { name: string; start_url: string; display: string; icons: Array<{ src: string; sizes: string }> };
    expect([data.name, data.start_url, data.display]).toEqual(['Organiser', '/book', 'standalone']);
    expect(data.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of data.icons) {
      const response = await page.request.get(icon.src);
      expect([icon.src, response.status(), response.headers()['content-type']]).toEqual([icon.src, 200, 'image/png']);
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the navigation bar\'s menus, without Popper', () => {
  it('open by keyboard, close by Esc (the focus back on the button), a click outside or a choice, which also closes the phone\'s bar', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, storageState: await signedInState(), viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const { problems } = await watchForErrors(page);
    await page.goto('/book');
    await page.locator('article.book-card').first().waitFor();
    const toggle = page.getByRole('button', { name: 'Bookmarks', exact: true });
    const menuShown = () => page.locator('#nav-bookmark-tags').isVisible();

    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(menuShown).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('nav-bookmark-list');
    await page.keyboard.press('Escape');
    await expect.poll(menuShown).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('nav-bookmarks');

    await toggle.click();
    await expect.poll(menuShown).toBe(true);
    await page.locator('main').click({ position: { x: 5, y: 600 } });
    await expect.poll(menuShown).toBe(false);

    await toggle.click();
    await page.locator('#nav-bookmark-tags').click();
    await page.waitForURL((url) => url.pathname === '/bookmark/tags');
    await expect.poll(() => page.locator('#app-nav').isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});
