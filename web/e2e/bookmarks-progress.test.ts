import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const OWNER = { displayName: 'Tim Berners-Lee', email: 'tim@example.org', password: 'world wide web' };
const LINKS = 40_000;
/** Bytes a second the browser may send, so that the bytes bar can be seen moving. */
const THROTTLED_UPLOAD = 1024 * 1024;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true' }), launchBrowser()]);
  await createAccount(server.baseUrl, OWNER);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A Netscape bookmarks file as a browser writes it, with `LINKS` links. */
function bookmarksFile(): Buffer {
  const entries = Array.from(
    { length: LINKS },
    (_, i) => `    <DT><A HREF="https://example.org/page/${i}" ADD_DATE="${1_700_000_000 + i}">Page number ${i} about rivers and gardens</A>`,
  );
  return Buffer.from(
    `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n${entries.join('\n')}\n</DL><p>\n`,
  );
}

async function watchText(page: Page, locator: Locator, enough: (texts: string[]) => boolean): Promise<string[]> {
  const texts: string[] = [];
  for (const end = Date.now() + 60_000; Date.now() < end; await page.waitForTimeout(30)) {
    const text = await locator.innerText({ timeout: 1000 }).catch(() => '');
    if (text && text !== texts.at(-1)) texts.push(text);
    if (enough(texts)) return texts;
  }
  throw new Error(`gave up; seen: ${texts.join(' | ')}`);
}

it('shows a bookmark import’s bytes bar moving, then the server’s counts, then the result', async () => {
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  const seen = await watchForErrors(page, [/status of 401/]);
  try {
    await signIn(page, OWNER);
    await page.goto('/bookmark');
    await page.getByRole('button', { name: 'Import bookmarks file' }).waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: THROTTLED_UPLOAD });

    await page.getByLabel('Bookmarks file to import').setInputFiles({ name: 'bookmarks.html', mimeType: 'text/html', buffer: bookmarksFile() });
    const status = page.locator('#bookmark-import-progress[role="status"], #bookmark-import-progress [role="status"]');
    const texts = await watchText(page, status, (all) => all.filter((text) => text.startsWith('sending: ')).length >= 3);
    const sent = texts.filter((text) => text.startsWith('sending: ')).map((text) => Number(/^sending: ([\d.]+)/.exec(text)![1]));
    expect(sent.at(-1)).toBeGreaterThan(sent[0]!);

    const reading = await watchText(page, status, (all) => all.some((text) => /^reading: [1-9][\d,]* entries/.test(text)));
    expect(reading.at(-1)).toMatch(/^reading: [\d,]+ entries, [\d,]+ imported, 0 skipped, 0 errors$/);

    await page.getByText(`imported: ${LINKS}, skipped: 0, errors: 0`).waitFor({ timeout: 120_000 });
    expect(await status.count()).toBe(0);
  } finally {
    await context.close();
  }
  expect(seen.problems).toEqual([]);
}, 150_000);
