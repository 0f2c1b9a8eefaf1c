import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestSmtp, type TestSmtp } from '../../server/src/test/test-smtp.ts';
import { launchBrowser } from './browser.ts';
import { createAccount, libraryLoaded, type PageWatch, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const FIXTURE_LIBRARY = path.resolve(import.meta.dirname, '../../server/src/books/fixtures/library');
const DISCWORLD = 'Terry Pratchett/The Science of Discworld (1)';
const READER = { displayName: 'Ada Lovelace', email: 'ada@example.org', password: 'analytical engine' };

let work: string;
let library: string;
let smtp: TestSmtp;
let server: RunningServer;
let browser: Browser;

/** The fixture library, its Discworld PDF padded past 1 MB so that a device of 1 MB refuses it. */
beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-e2e-send-'));
  library = path.join(work, 'Calibre Library');
  fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
  const pdf = path.join(library, DISCWORLD, 'The Science of Discworld - Terry Pratchett.pdf');
  fs.appendFileSync(pdf, Buffer.alloc(1_200_000 - fs.statSync(pdf).size, 0x20));
  smtp = await startTestSmtp();
  [server, browser] = await Promise.all([
    startServer({ ALLOW_SIGNUP: 'true', CALIBRE_LIBRARY: library, SMTP_URL: smtp.url, MAIL_FROM: 'organiser@example.org' }),
    launchBrowser(),
  ]);
  await createAccount(server.baseUrl, READER);
  await libraryLoaded(server.baseUrl);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const rows = (page: Page) => page.locator('#e-readers tr.e-reader');

async function addEReader(page: Page, { name, kind, email, limit }: { name: string; kind: string; email: string; limit?: string }) {
  await page.locator('#e-reader-name').fill(name);
  await page.locator('#e-reader-kind').selectOption(kind);
  await page.locator('#e-reader-email').fill(email);
  if (limit !== undefined) await page.locator('#e-reader-limit').fill(limit);
  await page.locator('#e-reader-add').click();
}

describe('send to e-reader, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let seen: PageWatch;

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl });
    page = await context.newPage();
    // The bad address is refused by the server: its failed request is logged by the browser.
    seen = await watchForErrors(page, [/status of 400/]);
    return async () => {
      await context.close();
      expect(seen.problems).toEqual([]);
    };
  });

  it('keeps the addresses in the profile, mails the book’s EPUB to one, and refuses a file over a device’s limit', async () => {
    await signIn(page, READER);
    await page.goto('/profile');
    await page.locator('#e-readers-none').waitFor();

    await addEReader(page, { name: 'Kindle', kind: 'kindle', email: 'not an address' });
    await expect.poll(() => page.locator('#e-readers-error').textContent()).toContain('valid e-mail address');
    expect(await rows(page).count()).toBe(0);

    await page.locator('#e-reader-email').fill('ada_1@kindle.com');
    expect(await page.locator('#e-reader-limit').inputValue()).toBe('50');
    await page.locator('#e-reader-add').click();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().innerText()).toMatch(/Kindle\s+ada_1@kindle\.com\s+Kindle\s+50 MB/);
    await addEReader(page, { name: 'Old Kindle', kind: 'kindle', email: 'ada_old@kindle.com', limit: '1' });
    await expect.poll(() => rows(page).count()).toBe(2);

    await page.goto('/book/1');
    await page.getByRole('heading', { level: 1, name: 'The Science of Discworld' }).waitFor();
    await expect.poll(() => page.locator('#send-device').inputValue()).not.toBe('');
    expect(await page.locator('#send-format').inputValue()).toBe('epub');
    expect(await page.locator('#send-format option').allInnerTexts()).toEqual(['EPUB (49.8 kB)', 'PDF (1.2 MB)']);
    const before = smtp.received.length;
    await page.locator('#send-book').click();
    await expect.poll(() => page.locator('#send-result').textContent()).toMatch(/^Sent to Kindle: EPUB \(49\.8 kB\) mailed to ada_1@kindle\.com\.$/);
    await smtp.waitFor(before + 1);
    const mail = smtp.received[before]!;
    expect(mail.to).toEqual(['ada_1@kindle.com']);
    const [attachment] = (await PostalMime.parse(mail.raw)).attachments;
    expect(attachment!.mimeType).toBe('application/epub+zip');
    const epub = fs.readFileSync(path.join(library, DISCWORLD, 'The Science of Discworld - Terry Pratchett.epub'));
    expect(Buffer.from(attachment!.content as ArrayBuffer).equals(epub)).toBe(true);

    await page.locator('#send-device').selectOption({ label: 'Old Kindle' });
    await page.locator('#send-format').selectOption('pdf');
    await expect.poll(() => page.locator('#send-too-large').textContent()).toBe(
      'The PDF file is 1.2 MB, more than the 1 MB that Old Kindle takes.',
    );
    expect(await page.locator('#send-book').isDisabled()).toBe(true);
    await page.locator('#send-format').selectOption('epub');
    expect(await page.locator('#send-too-large').count()).toBe(0);
    expect(smtp.received.length).toBe(before + 1);
  });
});
