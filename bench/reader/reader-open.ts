import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page, Request } from 'playwright-core';
import { BOOK_ID, READER } from './reader-setup.ts';

export type ReaderFormat = 'epub' | 'pdf';

/** One cold opening of a book, and the floor measured in the same browser context just before it. */
export type OpenRun = {
  /** From the click on "Read" to the first page's text (EPUB) or drawn canvas (PDF) shown, ms. */
  firstPageMs: number;
  /** The floor: the book's page of the app loaded cold in the same context, to its "Read" link shown, ms. */
  appPageMs: number;
  /** The book file's bytes the browser had fetched when the first page showed, and its requests. */
  fileBytes: number;
  fileRequests: number;
  /** The book file's bytes fetched 2 s later, the page left as it was: what it read ahead, if anything. */
  fileBytesSettled: number;
  /** Every byte the reader's page load fetched until the first page showed (the app, its code, the API, the file). */
  allBytes: number;
};

const LINK_NAME: Record<ReaderFormat, string> = { epub: 'Read', pdf: 'Read PDF' };

/** The text of every frame: an EPUB's sections are frames in foliate-js's closed shadow root, beyond CSS selectors. */
const framesText = (page: Page) => Promise.all(page.frames().map((frame) => frame.evaluate<string>("document.body?.innerText ?? ''").catch(() => ''))).then((texts) => texts.join('\n'));

async function firstPageShown(page: Page, format: ReaderFormat): Promise<void> {
  if (format === 'pdf') {
    // Set once PDF.js has finished drawing page 1 on its canvas (features/reader/pdf-view.tsx).
    await page.locator('canvas[data-rendered="1"]').waitFor({ timeout: 60_000 });
    return;
  }
  // foliate-js tells where it is once the first section is laid out; its text is then in a frame.
  await page.locator('#reader[data-locator^="epubcfi("]').waitFor({ timeout: 60_000 });
  for (const until = Date.now() + 60_000; !(await framesText(page)).includes('Chapter 1, paragraph 1.'); ) {
    if (Date.now() > until) throw new Error('the EPUB showed no text');
    await sleep(10);
  }
}

/** Bytes of each finished request, by whether it is the book's file; sizes are read as the requests finish. */
function countBytes(page: Page, filePath: string) {
  const counted: Array<Promise<{ file: boolean; bytes: number }>> = [];
  const listener = (request: Request) => {
    counted.push(
      request.sizes().then(
        (sizes) => ({ file: new URL(request.url()).pathname === filePath, bytes: sizes.responseBodySize + sizes.responseHeadersSize }),
        () => ({ file: false, bytes: 0 }),
      ),
    );
  };
  page.on('requestfinished', listener);
  return async () => {
    const sizes = await Promise.all(counted);
    const file = sizes.filter((size) => size.file);
    return { fileBytes: file.reduce((sum, size) => sum + size.bytes, 0), fileRequests: file.length, allBytes: sizes.reduce((sum, size) => sum + size.bytes, 0) };
  };
}

/**
 * A new browser context (nothing cached, nothing stored) signs in and opens the book's page; the
 * browser's cache is emptied, the page reloaded and timed to its "Read" link (the floor), the
 * cache emptied again, and "Read" clicked: that opening is timed to the first page shown.
 */
export async function openCold(browser: Browser, baseUrl: string, format: ReaderFormat): Promise<OpenRun> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(READER.email);
    await page.getByLabel('Password').fill(READER.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/book');
    await page.goto(`/book/${BOOK_ID}`);
    const link = page.getByRole('link', { name: LINK_NAME[format], exact: true });
    await link.waitFor();
    const cdp = await context.newCDPSession(page);

    await cdp.send('Network.clearBrowserCache');
    const reloaded = performance.now();
    await page.reload();
    await link.waitFor();
    const appPageMs = performance.now() - reloaded;

    await cdp.send('Network.clearBrowserCache');
    const bytes = countBytes(page, `/api/books/${BOOK_ID}/file/${format}`);
    const clicked = performance.now();
    await link.click();
    await firstPageShown(page, format);
    const firstPageMs = performance.now() - clicked;
    const atFirstPage = await bytes();
    await sleep(2_000);
    const settled = await bytes();
    if (problems.length > 0) throw new Error(`the reader failed: ${problems.join('; ')}`);
    return {
      firstPageMs: Math.round(firstPageMs),
      appPageMs: Math.round(appPageMs),
      fileBytes: atFirstPage.fileBytes,
      fileRequests: atFirstPage.fileRequests,
      fileBytesSettled: settled.fileBytes,
      allBytes: atFirstPage.allBytes,
    };
  } finally {
    await context.close();
  }
}

/** The floor for the file's bytes: the same server's reply to what the reader fetches first, fetched by Node (the whole EPUB; the PDF's first range). */
export async function fetchFileFloor(baseUrl: string, token: string, format: ReaderFormat): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/books/${BOOK_ID}/file/${format}`, {
    headers: { authorization: `Bearer ${token}`, ...(format === 'pdf' ? { range: 'bytes=0-65535' } : {}) },
  });
  await response.arrayBuffer();
  if (response.status !== (format === 'pdf' ? 206 : 200)) throw new Error(`the file's floor got ${response.status}`);
  return +(performance.now() - started).toFixed(1);
}
