import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const ADMIN = { displayName: 'Ada Lovelace', email: 'ada@example.org', password: 'analytical engine' };
const LIBRARY = path.resolve(import.meta.dirname, '../../server/src/books/fixtures/calibre/library.json');
/** Written by each run, git-ignored: look at them after a change to the screens. */
const SCREENSHOTS = path.resolve(import.meta.dirname, 'screenshots');
/**
 * The pictures are for a person to look at after changing a screen; CI has no one to look, and
 * taking them is a quarter of this file's time (89 s with them, 68 s without, on a quiet machine).
 */
const PICTURES = !process.env.CI;

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

let server: RunningServer;
let browser: Browser;
let bookmarkId: number;
let taskId: string;
let shelfId: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const idToken = await createAccount(server.baseUrl, { ...ADMIN });
  const api = apiAs(server.baseUrl, idToken);
  expect((await api('/api/users/me', 'PUT', { timezone: 'Europe/Berlin' })).status).toBe(200);
  const upload = new FormData();
  upload.append('name', 'replace');
  upload.append('file', new Blob([fs.readFileSync(LIBRARY)], { type: 'application/json' }), 'library.json');
  const loaded = await fetch(`${server.baseUrl}/api/books/index`, { method: 'POST', headers: { authorization: `Bearer ${idToken}` }, body: upload });
  expect(loaded.status).toBe(200);
  const samples = [
    { title: 'A garden in every season: planting notes for a small plot', link: 'https://garden.example.org/seasons', tags: 'garden, planning', note: 'Read the part on autumn bulbs.\nThen the spring list.\nOrder seeds in January.\nCheck the frost dates.' },
    { title: 'Composting', link: 'https://compost.example.org/', tags: 'garden' },
    { title: 'https://a-very-long-host-name-without-spaces.example.org/and/a/long/path/that/goes/on', link: 'https://a-very-long-host-name-without-spaces.example.org/and/a/long/path/that/goes/on', tags: '' },
  ];
  for (const sample of samples) {
    const bookmark = (await (await api('/bookmarks/', 'POST', sample)).json()) as { id: number };
    expect((await api('/api/bookmarks/', 'POST', bookmark)).status).toBe(200);
    bookmarkId = bookmark.id;
  }
  const task = await api('/schedule', 'POST', {
    name: 'Water the garden',
    first_schedule_time: '2030-03-06T09:00:00Z',
    notice_hours: [9, 17],
    comment: 'Start with the roses.\nThen the beds by the fence.',
  });
  taskId = ((await task.json()) as { id: string }).id;
  expect((await api('/schedule', 'POST', { name: 'Pay the electricity bill', first_schedule_time: '2020-01-06T09:00:00Z', schedule_type: 'm' })).status).toBe(200);
  const once = await api('/schedule', 'POST', { name: 'Renew the passport', first_schedule_time: '2030-04-01T08:00:00Z', schedule_type: 'o' });
  const onceId = ((await once.json()) as { id: string }).id;
  expect((await api(`/schedule/${onceId}`, 'PUT', { type: 'complete' })).status).toBe(200);
  const shelf = (await (await api('/api/shelves', 'POST', { name: 'Books to lend to the neighbours' })).json()) as { id: string };
  shelfId = shelf.id;
  const shelved = await fetch(`${server.baseUrl}/api/shelves/${shelfId}/books/1`, { method: 'PUT', headers: { authorization: `Bearer ${idToken}` } });
  expect(shelved.status).toBe(200);
  // The administration page shows its table of pending invitations with one.
  expect((await api('/api/admin/invitations', 'POST', { email: 'a.long.name.of.a.household.member@example.org' })).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Screen {
  name: string;
  path: () => string;
  title: string;
  /** What shows once the screen has what it loads. */
  ready: (page: Page) => Promise<unknown>;
  signedOut?: boolean;
  /** Something to do on the screen before it is looked at (a search, a dialog opened). */
  act?: (page: Page) => Promise<unknown>;
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();

const SCREENS: Screen[] = [
  { name: 'login', path: () => '/login', title: 'Log in — Organiser', ready: (page) => heading(page, 'Sign in'), signedOut: true },
  {
    name: 'books',
    path: () => '/book',
    title: 'Books — Organiser',
    ready: (page) => heading(page, 'Books'),
    act: async (page) => {
      await page.getByRole('searchbox', { name: 'Search books' }).fill('');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.locator('article.book-card').nth(9).waitFor();
    },
  },
  {
    name: 'book-settings',
    path: () => '/book',
    title: 'Books — Organiser',
    ready: (page) => heading(page, 'Books'),
    act: async (page) => {
      await page.getByRole('button', { name: 'Advanced Search Settings' }).click();
      await page.getByRole('dialog', { name: 'Advanced Search Settings' }).getByLabel('entries').waitFor();
    },
  },
  { name: 'book', path: () => '/book/1', title: 'Book — Organiser', ready: (page) => heading(page, 'Les Misérables') },
  { name: 'tasks', path: () => '/task', title: 'Tasks — Organiser', ready: (page) => page.getByRole('link', { name: /Water the garden/ }).waitFor() },
  {
    name: 'tasks-done',
    path: () => '/task',
    title: 'Tasks — Organiser',
    ready: (page) => page.getByRole('link', { name: /Water the garden/ }).waitFor(),
    act: async (page) => {
      await page.getByRole('button', { name: 'Done', exact: true }).click();
      await heading(page, 'Found 1 done task');
    },
  },
  { name: 'task-create', path: () => '/task/create', title: 'New task — Organiser', ready: (page) => heading(page, 'New task') },
  { name: 'task', path: () => `/task/${taskId}`, title: 'Task — Organiser', ready: (page) => heading(page, 'Water the garden') },
  { name: 'bookmarks', path: () => '/bookmark', title: 'Bookmarks — Organiser', ready: (page) => page.getByText('Found 3 Bookmarks').waitFor() },
  { name: 'bookmark-create', path: () => '/bookmark/create', title: 'New bookmark — Organiser', ready: (page) => heading(page, 'New bookmark') },
  {
    name: 'bookmark-search',
    path: () => '/bookmark/query',
    title: 'Bookmark search — Organiser',
    ready: (page) => heading(page, 'Bookmark search'),
    act: async (page) => {
      await page.getByRole('searchbox', { name: 'Key words' }).fill('garden');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByText('Found 2 Bookmarks').waitFor();
      // A facet picked shows as a chip under the box.
      await page.getByRole('button', { name: 'Advanced Search Configuration' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('tag_groups').click();
      await dialog.getByRole('option', { name: 'planning (1)' }).click();
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText('Found 1 Bookmarks').waitFor();
    },
  },
  {
    name: 'bookmark-search-settings',
    path: () => '/bookmark/query',
    title: 'Bookmark search — Organiser',
    ready: (page) => heading(page, 'Bookmark search'),
    act: async (page) => {
      await page.getByRole('button', { name: 'Advanced Search Configuration' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().waitFor();
    },
  },
  { name: 'bookmark-tags', path: () => '/bookmark/tags', title: 'Bookmark tags — Organiser', ready: (page) => page.getByText('planning').waitFor() },
  {
    name: 'bookmark',
    path: () => `/bookmark/${bookmarkId}`,
    title: 'Bookmark — Organiser',
    ready: (page) => heading(page, /a-very-long-host-name/),
  },
  { name: 'shelves', path: () => '/shelf', title: 'Shelves — Organiser', ready: (page) => page.getByRole('link', { name: 'Books to lend to the neighbours' }).waitFor() },
  { name: 'shelf', path: () => `/shelf/${shelfId}`, title: 'Shelf — Organiser', ready: (page) => page.locator('article.book-card').first().waitFor() },
  {
    name: 'book-shelf-menu',
    path: () => `/shelf/${shelfId}`,
    title: 'Shelf — Organiser',
    ready: (page) => page.locator('article.book-card').first().waitFor(),
    act: async (page) => {
      await page.getByRole('button', { name: /^Shelves of / }).first().click();
      await page.locator('.shelf-menu').getByLabel('Books to lend to the neighbours').waitFor();
    },
  },
  { name: 'profile', path: () => '/profile', title: 'Profile — Organiser', ready: (page) => page.locator('.timezone__single-value').waitFor() },
  { name: 'admin', path: () => '/admin', title: 'Administration — Organiser', ready: (page) => page.locator('tr[data-email]').first().waitFor() },
  { name: 'forgot-password', path: () => '/forgot-password', title: 'Forgot your password? — Organiser', ready: (page) => heading(page, 'Forgot your password?'), signedOut: true },
  { name: 'reset-password', path: () => '/reset-password?token=x', title: 'Choose a new password — Organiser', ready: (page) => heading(page, 'Choose a new password'), signedOut: true },
  { name: 'logout', path: () => '/logout', title: 'Log out — Organiser', ready: (page) => page.getByRole('button', { name: 'Logout' }).waitFor() },
];

/** How far the page reaches past the window's right edge; 0 when nothing needs a sideways scroll. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe.each(SIZES)('every screen at $width×$height', (size) => {
  let signedIn: BrowserContext;
  let signedOut: BrowserContext;

  beforeAll(async () => {
    const options = { baseURL: server.baseUrl, timezoneId: 'Europe/Berlin', viewport: { width: size.width, height: size.height } };
    [signedIn, signedOut] = await Promise.all([browser.newContext(options), browser.newContext(options)]);
    const page = await signedIn.newPage();
    await signIn(page, ADMIN);
    await page.close();
  });
  afterAll(async () => {
    await signedIn?.close();
    await signedOut?.close();
  });

  it.each(SCREENS)('$name: its own title, one h1, nothing past the right edge, and a screenshot', async (screen) => {
    const page = await (screen.signedOut ? signedOut : signedIn).newPage();
    const { problems } = await watchForErrors(page, [/status of 401/]);
    await page.goto(screen.path());
    await screen.ready(page);
    await screen.act?.(page);
    if (PICTURES) {
      // Fonts and the modal's fade settle before the picture.
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(400);
    }

    expect(await page.title()).toBe(screen.title);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    // A dialog's backdrop covers the window only: the whole page would show half of it.
    const fullPage = (await page.getByRole('dialog').count()) === 0;
    if (PICTURES) await page.screenshot({ path: path.join(SCREENSHOTS, `${screen.name}-${size.width}x${size.height}.png`), fullPage });
    await page.close();
    expect(problems).toEqual([]);
  });

  it('the open navigation menu: a screenshot', async () => {
    const page = await signedIn.newPage();
    await page.goto('/task');
    await heading(page, /task/);
    if (size.width < 992) await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('button', { name: 'Bookmarks', exact: true }).click();
    await page.locator('#nav-bookmark-tags').waitFor();
    if (PICTURES) {
      await page.waitForTimeout(400);
      await page.screenshot({ path: path.join(SCREENSHOTS, `navigation-${size.width}x${size.height}.png`) });
    }
    await page.close();
  });
});

describe('the bookmark search bar at 390 px', () => {
  it('keeps the box and both buttons on one row, inside the page', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, ADMIN);
    await page.goto('/bookmark/query');
    const bar = page.getByRole('search');
    const box = await bar.getByRole('searchbox', { name: 'Key words' }).boundingBox();
    const search = await bar.getByRole('button', { name: 'Search', exact: true }).boundingBox();
    const advanced = await bar.getByRole('button', { name: 'Advanced Search Configuration' }).boundingBox();
    const form = await bar.boundingBox();
    await context.close();

    for (const control of [search!, advanced!]) {
      expect(Math.abs(control.y - box!.y)).toBeLessThanOrEqual(1);
      expect(Math.abs(control.height - box!.height)).toBeLessThanOrEqual(1);
    }
    expect(box!.x + box!.width).toBeLessThanOrEqual(search!.x + 1);
    expect(search!.x + search!.width).toBeLessThanOrEqual(advanced!.x + 1);
    expect(advanced!.x + advanced!.width).toBeLessThanOrEqual(form!.x + form!.width + 1);
    expect(form!.x + form!.width).toBeLessThanOrEqual(390);
    // The box keeps room to type in.
    expect(box!.width).toBeGreaterThan(150);
  });
});
