import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { chooseTimezone, chosenTimezone, expireSavedToken, signIn, submitLogin, timezoneOptions, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const ADMIN = { name: 'Ada Lovelace', email: 'ada@example.org', password: 'analytical engine' };

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A stale token's 401, which the client answers with a refresh. */
const EXPECTED_ERRORS = [/status of 401/];

async function newContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL: server.baseUrl, timezoneId: 'Europe/Berlin', ...options });
}

const navLinks = (page: Page) => page.locator('.app-navbar .nav-link, .app-navbar .dropdown-toggle').allInnerTexts();

describe('foundation, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await newContext();
    page = await context.newPage();
    problems = (await watchForErrors(page, EXPECTED_ERRORS)).problems;
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  it('creates the first account from /login, then moves on to the page first asked for', async () => {
    await page.goto('/task');
    await page.waitForURL('**/login');
    expect(await navLinks(page)).toEqual(['Log in']);
    await expect.poll(() => page.getByRole('heading', { name: 'Create the first account' }).isVisible()).toBe(true);

    await page.getByLabel('Name').fill(ADMIN.name);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill('too short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/at least 10 characters/);

    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(`Welcome ${ADMIN.name}`).waitFor();
    await page.waitForURL('**/task');
    // The first account administers, so it has the administration's link too.
    expect(await navLinks(page)).toEqual(['Books', 'Shelves', 'Tasks', 'Bookmarks', 'Profile', 'Administration', 'Log Out']);
    expect(await page.locator('.app-navbar').evaluate((bar) => [...bar.classList])).toEqual(
      expect.arrayContaining(['bg-light', 'navbar-expand-lg']),
    );
    await page.getByRole('button', { name: 'Bookmarks' }).click();
    const menu = page.locator('#nav-bookmark-query').locator('xpath=..');
    expect(await menu.evaluate((element) => getComputedStyle(element).maxHeight)).toBe('200px');
    await page.locator('#nav-bookmark-query').click();
    await page.waitForURL('**/bookmark/query');
  });

  it('signs in later with e-mail and password, refusing a wrong one, and lands on /book', async () => {
    await page.goto('/login');
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Signin with Google' }).count()).toBe(0);
    await submitLogin(page, { email: ADMIN.email, password: 'not the password' });
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Wrong e-mail or password');
    await submitLogin(page, ADMIN);
    await page.getByText(`Welcome ${ADMIN.name}`).waitFor();
    await page.waitForURL((url) => url.pathname === '/book');
  });

  it('goes where the user clicks during the welcome pause, even when that page’s code arrives after the pause', async () => {
    await page.clock.install();
    // The profile page's code is held until the pause is over, as on a slow link or a busy machine.
    let releaseProfileCode = () => {};
    const held = new Promise<void>((resolve) => (releaseProfileCode = resolve));
    let heldRequests = 0;
    await page.route('**/assets/profile-page-*.js', async (route) => {
      heldRequests++;
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await submitLogin(page, ADMIN);
    await page.getByText(`Welcome ${ADMIN.name}`).waitFor();
    await page.getByRole('link', { name: 'Profile' }).click();
    // Else the chunk's name changed and nothing was held: the test would no longer test the pause.
    await expect.poll(() => heldRequests).toBe(1);
    await page.clock.runFor(5000);
    releaseProfileCode();
    await page.locator('#profile-uid').waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile');
  });

  it('sets the timezone from the browser at the first sign-in, shows the profile, and sends unknown paths to /book', async () => {
    await signIn(page, ADMIN);
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    expect(await page.locator('#profile-name').innerText()).toBe(ADMIN.name);
    expect(await page.locator('#profile-email').innerText()).toBe(ADMIN.email);
    expect(await page.locator('#profile-uid').innerText()).toMatch(/^[0-9a-f-]{36}$/);
    // The first test created the account in a browser set to Europe/Berlin.
    await expect.poll(() => chosenTimezone(page)).toBe('Europe/Berlin');
    const options = await timezoneOptions(page);
    expect(options.slice(0, 2)).toEqual(['US East (America/New_York)', 'US West (America/Los_Angeles)']);
    expect(options.length).toBeGreaterThan(300);

    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/book');
  });

  it('shows a timezone change made in one tab in another open tab within a second, without reload', async () => {
    await signIn(page, ADMIN);
    await page.goto('/profile');
    const other = await context.newPage();
    const otherProblems = (await watchForErrors(other, EXPECTED_ERRORS)).problems;
    await other.goto('/profile');
    await other.locator('input[name="timezone"]').waitFor({ state: 'attached' });
    let reloaded = false;
    other.on('load', () => (reloaded = true));

    await chooseTimezone(page, 'los angeles', 'US West (America/Los_Angeles)');
    const changedAt = Date.now();
    await other.waitForFunction(
      () => (document.querySelector('input[name="timezone"]') as HTMLInputElement | null)?.value === 'America/Los_Angeles',
      undefined,
      { timeout: 1000, polling: 20 },
    );
    expect(Date.now() - changedAt).toBeLessThan(1000);
    expect(reloaded).toBe(false);
    expect(otherProblems).toEqual([]);
  });

  it('keeps the session across a reload, and keeps the state in localStorage under one key', async () => {
    await signIn(page, ADMIN);
    await page.goto('/profile');
    await page.reload();
    await page.locator('#profile-email').waitFor();
    expect(page.url()).toMatch(/\/profile$/);
    const saved = await page.evaluate(() => Object.keys(localStorage));
    expect(saved).toEqual(['organiser.state']);
    const state = await page.evaluate(() => JSON.parse(localStorage.getItem('organiser.state') ?? '{}'));
    expect(Object.keys(state).sort()).toEqual(['app', 'auth', 'bookmark', 'task']);
    expect(state.auth).toMatchObject({ authenticated: true, email: ADMIN.email });
  });

  it('sends an expired session to /login on the next load', async () => {
    await signIn(page, ADMIN);
    // The bearer token no longer verifies and the refresh cookie is gone (expired), cleared once the
    // app's page, whose requests could still set it, has gone.
    await expireSavedToken(page);
    await context.clearCookies();
    await page.goto('/profile');
    await page.waitForURL('**/login');
    expect(await navLinks(page)).toEqual(['Log in']);
  });

  it('logs out from /logout, which then says you are not in yet and returns to /login', async () => {
    await signIn(page, ADMIN);
    await page.getByRole('link', { name: 'Log Out' }).click();
    await page.waitForURL('**/logout');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await navLinks(page)).toEqual(['Log in']);

    await page.goto('/logout');
    await page.getByText('you are not in yet').waitFor();
    await page.waitForURL('**/login');
    // The session is revoked at the server too: a reload does not bring it back.
    await page.goto('/profile');
    await page.waitForURL('**/login');
  });
});

describe('sign-in buttons of configured identity providers', () => {
  it('shows "Signin with Google" and the generic provider only when they are configured', async () => {
    const configured = await startServer({
      GOOGLE_CLIENT_ID: 'client-id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'client-secret',
      OIDC_ISSUER: 'https://id.example.org/realms/home',
      OIDC_CLIENT_ID: 'organiser',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_NAME: 'Keycloak',
    });
    const context = await browser.newContext({ baseURL: configured.baseUrl });
    try {
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByRole('button', { name: 'Signin with Google' }).waitFor();
      expect(await page.getByRole('button', { name: 'Sign in with Keycloak' }).count()).toBe(1);
    } finally {
      await context.close();
      await configured.stop();
    }
  });
});
