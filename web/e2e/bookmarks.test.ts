import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { createAccount, type Credentials, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const OWNER = { displayName: 'Tim Berners-Lee', email: 'tim@example.org', password: 'information management' };
const OTHER = { displayName: 'Vint Cerf', email: 'vint@example.org', password: 'transmission control' };
const FIREFOX_FILE = path.resolve(import.meta.dirname, '../../server/src/bookmarks/fixtures/firefox-bookmarks.html');

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true' }), launchBrowser()]);
  for (const user of [OWNER, OTHER]) await createAccount(server.baseUrl, user);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The 404 of an index check on a bookmark not yet indexed is part of the API. */
const EXPECTED_ERRORS = [/status of 404/];

const cards = (page: Page) => page.locator('article.bookmark-card');
const titles = (page: Page) => cards(page).locator('h3 a[target="_blank"]').allInnerTexts();
const heading = (page: Page) => page.getByRole('heading', { level: 2 });

async function createBookmark(page: Page, fields: { title: string; link: string; tags?: string; note?: string }) {
  await page.goto('/bookmark/create');
  await page.getByLabel('title').fill(fields.title);
  await page.getByLabel('link').fill(fields.link);
  if (fields.tags) await page.getByLabel('tags').fill(fields.tags);
  if (fields.note) await page.getByLabel('note').fill(fields.note);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL(/\/bookmark\/\d+$/);
  await page.getByText('Indexed', { exact: true }).waitFor();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

async function search(page: Page, words: string) {
  await page.getByRole('searchbox', { name: 'Key words' }).fill(words);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

async function openConfiguration(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Advanced Search Configuration' }).click();
  const dialog = page.getByRole('dialog', { name: 'Advanced Search Configuration' });
  await dialog.waitFor();
  return dialog;
}

describe('bookmarks, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  let others: BrowserContext[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: 'Europe/Berlin', acceptDownloads: true });
    page = await context.newPage();
    problems = (await watchForErrors(page, EXPECTED_ERRORS)).problems;
    others = [];
    return async () => {
      await Promise.all([context, ...others].map((open) => open.close()));
      expect(problems).toEqual([]);
    };
  });

  /** A browser of its own, signed in as `user`, whose problems count too. */
  async function openAs(user: Credentials): Promise<Page> {
    const own = await browser.newContext({ baseURL: server.baseUrl, timezoneId: 'Europe/Berlin' });
    others.push(own);
    const opened = await own.newPage();
    const seen = await watchForErrors(opened, EXPECTED_ERRORS);
    opened.on('close', () => problems.push(...seen.problems));
    await signIn(opened, user);
    return opened;
  }

  it('creates, indexes, searches with facets, filters by a host, opens, edits and steps through', async () => {
    await signIn(page, OWNER);
    await page.goto('/bookmark/create');
    await page.getByRole('button', { name: 'Create' }).click();
    expect(await page.locator('.validation-message').allInnerTexts()).toEqual(['title is required', 'link is required']);
    // A problem goes as soon as its field is filled; the other waits.
    await page.getByLabel('title').fill('MDN');
    expect(await page.locator('.validation-message').allInnerTexts()).toEqual(['link is required']);

    const first = await createBookmark(page, { title: 'MDN Web Docs', link: 'https://developer.mozilla.org/en-US/', tags: 'web, reference', note: 'The web platform\nreference' });
    expect(await page.locator('#bookmark-title').innerText()).toBe('MDN Web Docs');
    expect(await page.locator('#bookmark-tags .tag-chip').allInnerTexts()).toEqual(['web', 'reference']);
    await createBookmark(page, { title: 'Web fonts on MDN', link: 'https://developer.mozilla.org/en-US/docs/Web/CSS/font', tags: 'web css' });
    await createBookmark(page, { title: 'The Web Almanac', link: 'https://almanac.httparchive.org/', tags: 'web' });

    await page.goto('/bookmark/query');
    expect(await heading(page).innerText()).toBe('No bookmark found');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('key words are required').waitFor();
    await search(page, 'WEB');
    await expect.poll(() => titles(page)).toEqual(['The Web Almanac', 'Web fonts on MDN', 'MDN Web Docs']);
    expect(await heading(page).innerText()).toBe('Found 3 Bookmarks');
    expect(await cards(page).first().locator('a[target="_blank"]').getAttribute('href')).toBe('https://almanac.httparchive.org/');
    expect(await cards(page).last().innerText()).toContain('The web platform\nreference');
    expect(await cards(page).last().innerText()).toMatch(/Create: .+, Update: .+/);

    const dialog = await openConfiguration(page);
    await dialog.getByLabel('host_groups').click();
    expect(await dialog.getByRole('option').allInnerTexts()).toEqual(['developer.mozil (2)', 'almanac.httparc (1)']);
    // A label cut at 15 characters keeps the whole in its tooltip.
    expect(await dialog.getByRole('option', { name: 'developer.mozil (2)' }).locator('[title]').getAttribute('title')).toBe('developer.mozilla.org (2)');
    await dialog.getByRole('option', { name: 'developer.mozil (2)' }).click();
    // The facet narrows the search at once, with the dialog still open and Search not pressed.
    await expect.poll(() => titles(page)).toEqual(['Web fonts on MDN', 'MDN Web Docs']);
    await dialog.getByLabel('tag_groups').click();
    expect(await dialog.getByRole('option').allInnerTexts()).toEqual(['web (2)', 'css (1)', 'reference (1)']);
    await dialog.getByLabel('tag_groups').press('Escape');
    expect(await dialog.getByLabel('create_date end').isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The filter shows as a chip, cut as the dialog cuts it; its × widens the search at once.
    const chips = page.getByRole('list', { name: 'Active filters' }).getByRole('listitem');
    expect(await chips.allInnerTexts()).toEqual(['host developer.mozil…']);
    expect(await chips.first().getAttribute('title')).toBe('host developer.mozilla.org');
    await page.getByRole('button', { name: 'Remove filter host developer.mozilla.org' }).click();
    await expect.poll(() => titles(page)).toEqual(['The Web Almanac', 'Web fonts on MDN', 'MDN Web Docs']);
    expect(await chips.count()).toBe(0);

    const again = await openConfiguration(page);
    await again.getByLabel('host_groups').click();
    await again.getByRole('option', { name: 'developer.mozil (2)' }).click();
    await again.getByRole('button', { name: 'Close', exact: true }).click();
    await again.waitFor({ state: 'hidden' });
    await expect.poll(() => titles(page)).toEqual(['Web fonts on MDN', 'MDN Web Docs']);
    expect(await cards(page).first().locator('.bookmark-host').innerText()).toBe('developer.mozilla.org');

    await cards(page).first().getByRole('link', { name: 'Details of Web fonts on MDN' }).click();
    await page.waitForURL(/\/bookmark\/\d+$/);
    await page.getByText('Indexed', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Previous' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(`**/bookmark/${first}`);
    await page.locator('#bookmark-title').getByText('MDN Web Docs').waitFor();
    expect(await page.getByRole('link', { name: 'Next' }).count()).toBe(0);

    await page.locator('#bookmark-title-edit').click();
    await page.locator('#bookmark-title-input').fill('MDN Web Docs, the reference');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#bookmark-title').getByText('MDN Web Docs, the reference').waitFor();
    await page.getByRole('link', { name: 'Previous' }).click();
    await page.locator('#bookmark-title').getByText('Web fonts on MDN').waitFor();

    // The edit was indexed again: the search finds the new title.
    await page.goto('/bookmark/query');
    await search(page, 'the reference');
    await expect.poll(() => titles(page)).toEqual(['MDN Web Docs, the reference']);
  });

  it('imports a file Firefox wrote, lists it with Get More, and exports a file that imports back', async () => {
    await signIn(page, OWNER);
    await page.goto('/bookmark');
    await page.getByText(/^Found \d+ Bookmarks$/).waitFor();
    await page.getByLabel('Bookmarks file to import').setInputFiles(FIREFOX_FILE);
    await page.getByText('imported: 8, skipped: 3, errors: 0').waitFor();
    await page.getByText('Skipped (3)').click();
    expect(await page.locator('.import-skipped li').allInnerTexts()).toEqual([
      'line 21: javascript:alert(document.title) — not a web link (javascript:)',
      'line 24: https://sqlite.org/fts5.html — repeats line 19',
      'line 25: file:///home/user/notes.txt — not a web link (file:)',
    ]);
    // Five a page, newest first: the three bookmarks of the first test are newer than the whole Firefox file (2023).
    await expect.poll(() => titles(page)).toHaveLength(5);
    expect((await titles(page))[0]).toBe('The Web Almanac');
    for (let pages = 1; (await page.getByRole('button', { name: 'Get More' }).count()) > 0; pages++) {
      await page.getByRole('button', { name: 'Get More' }).click();
      await expect.poll(() => titles(page)).toHaveLength(Math.min(5 * (pages + 1), 11));
    }
    expect(await heading(page).innerText()).toBe('Found 11 Bookmarks');
    expect((await titles(page)).at(-1)).toBe('HTML: HyperText Markup Language | MDN');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export bookmarks file' }).click();
    const file = await (await download).path();
    const exported = fs.readFileSync(file, 'utf8');
    expect(exported).toMatch(/^<!DOCTYPE NETSCAPE-Bookmark-file-1>/);
    expect(exported.match(/<DT><A /g)).toHaveLength(11);
    // The folder tree the Firefox file came from: nested lists, the toolbar marked as Firefox marks it, the keyword.
    expect(exported).toMatch(/ {4}<DT><H3>Development<\/H3>\n {4}<DL><p>\n(?:.*\n)*? {8}<DT><H3>Databases<\/H3>\n {8}<DL><p>\n {12}<DT><A HREF="https:\/\/www\.postgresql\.org/);
    expect(exported).toMatch(/<DT><H3 PERSONAL_TOOLBAR_FOLDER="true">Bookmarks Toolbar<\/H3>\n {4}<DL><p>\n {8}<DT><A HREF="https:\/\/news\.ycombinator\.com\/"/);
    expect(exported).toContain('SHORTCUTURL="nodedocs"');

    // The export, imported by the other user, gives the same eleven bookmarks.
    const other = await openAs(OTHER);
    await other.goto('/bookmark');
    await other.getByText('No bookmark found').waitFor();
    await other.getByLabel('Bookmarks file to import').setInputFiles({ name: 'bookmarks.html', mimeType: 'text/html', buffer: Buffer.from(exported) });
    await other.getByText('imported: 11, skipped: 0, errors: 0').waitFor();
    await expect.poll(() => titles(other)).toHaveLength(5);
    await other.goto('/bookmark/query');
    await search(other, 'sqlite');
    await expect.poll(() => titles(other)).toEqual(['SQLite FTS5 Extension']);
  });

  it('offers Index for a bookmark that is not indexed, and then says Indexed', async () => {
    const login = await fetch(`${server.baseUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
    });
    const { idToken } = (await login.json()) as { idToken: string };
    const created = await fetch(`${server.baseUrl}/bookmarks/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify({ title: 'Saved by the API alone', link: 'https://example.org/api-only' }),
    });
    const { id } = (await created.json()) as { id: number };

    await signIn(page, OWNER);
    await page.goto(`/bookmark/${id}`);
    await page.locator('#bookmark-title').getByText('Saved by the API alone').waitFor();
    await page.getByRole('button', { name: 'Index', exact: true }).click();
    await page.getByText('Indexed', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Index', exact: true }).count()).toBe(0);
    await page.goto('/bookmark/query');
    await search(page, 'alone');
    await expect.poll(() => titles(page)).toEqual(['Saved by the API alone']);
  });

  it('shows a second user none of the first user’s bookmarks', async () => {
    await signIn(page, OWNER);
    const id = await createBookmark(page, { title: 'Owner only', link: 'https://example.org/owner-only', tags: 'private' });

    page = await openAs(OTHER);
    await page.goto(`/bookmark/${id}`);
    await page.getByText(`No bookmark found with id ${id}`).waitFor();
    // One message for one problem: the warning, not the red operation error as well.
    expect(await page.locator('.operation-error').count()).toBe(0);
    await page.goto('/bookmark/query');
    await search(page, 'owner');
    await page.getByText('No bookmark found').waitFor();
    await page.goto('/bookmark?tag=private');
    await page.getByText('No bookmark found').waitFor();
    expect(await cards(page).count()).toBe(0);
  });
});
