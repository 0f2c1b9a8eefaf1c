import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startTestIdentityProvider,
  type TestAccount,
  type TestIdentityProvider,
} from '../../server/src/test/identity-provider.ts';
import { launchBrowser } from './browser.ts';
import { expireSavedToken, watchForErrors } from './helpers.ts';
import { freePort, type RunningServer, startServer } from './server.ts';

const CLIENT = { clientId: 'organiser', clientSecret: 'organiser client secret' };
const PHOTO_URL = 'https://photos.example.org/ada.png';
/** A 1×1 PNG: the photo host is on the outside internet, which tests stand in for. */
const PHOTO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const ACCOUNTS: Record<string, TestAccount> = {
  ada: { email: 'ada@example.org', email_verified: true, name: 'Ada Lovelace', picture: PHOTO_URL },
};

const runs = [
  {
    provider: 'oidc',
    label: 'a generic issuer',
    button: 'Sign in with Keycloak',
    shownAs: 'Keycloak',
    claimsInIdToken: false,
    env: (issuer: string) => ({
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      OIDC_NAME: 'Keycloak',
    }),
  },
  {
    provider: 'google',
    label: 'Google',
    button: 'Signin with Google',
    shownAs: 'Google',
    claimsInIdToken: true,
    env: (issuer: string) => ({
      GOOGLE_ISSUER: issuer,
      GOOGLE_CLIENT_ID: CLIENT.clientId,
      GOOGLE_CLIENT_SECRET: CLIENT.clientSecret,
    }),
  },
] as const;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A refused sign-in ends on a result page with an error status, which Chromium reports as such. */
const EXPECTED_ERRORS = [/status of (401|403|400|502)/];

describe.each(runs)('sign-in through a popup with $label', (run) => {
  let server: RunningServer;
  let provider: TestIdentityProvider;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    // The provider must know the app's redirect URI and the app the provider's issuer: its port comes first.
    const providerPort = await freePort();
    server = await startServer(run.env(`http://127.0.0.1:${providerPort}`));
    provider = await startTestIdentityProvider({
      ...CLIENT,
      port: providerPort,
      redirectUris: [`${server.baseUrl}/auth/oidc/${run.provider}/callback`],
      accounts: ACCOUNTS,
      claimsInIdToken: run.claimsInIdToken,
    });
  });
  afterAll(async () => {
    await provider?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl, timezoneId: 'Europe/Berlin' });
    await context.route(PHOTO_URL, (route) => route.fulfill({ contentType: 'image/png', body: PHOTO_PNG }));
    page = await context.newPage();
    problems = (await watchForErrors(page, EXPECTED_ERRORS)).problems;
    await page.goto('/login');
    await page.getByRole('button', { name: run.button }).waitFor();
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  async function openPopup(): Promise<Page> {
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: run.button }).click()]);
    await popup.getByLabel('Account').waitFor();
    return popup;
  }

  const alertText = () => page.getByRole('alert').innerText();

  it("signs in inside the popup, which closes, and comes back signed in with the provider's name and photo", async () => {
    const popup = await openPopup();
    await popup.getByLabel('Account').fill('ada');
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()]);

    await page.getByText('Welcome Ada Lovelace').waitFor();
    await page.waitForURL((url) => url.pathname === '/book');
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.locator('#profile-email').waitFor();
    expect(await page.locator('#profile-name').innerText()).toBe('Ada Lovelace');
    expect(await page.locator('#profile-email').innerText()).toBe('ada@example.org');
    const photo = page.getByRole('img', { name: 'Photo of Ada Lovelace' });
    await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1);
    expect(await photo.getAttribute('src')).toBe(PHOTO_URL);

    // Signed in exactly as after a local sign-in: the refresh cookie keeps the session across a reload.
    await expireSavedToken(page);
    await page.goto('/profile');
    await page.locator('#profile-email').waitFor();
    expect(page.url()).toMatch(/\/profile$/);
  });

  it('says so on the login page when the user denies consent', async () => {
    const popup = await openPopup();
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Deny' }).click()]);
    await expect.poll(alertText).toBe(`Sign-in was cancelled at ${run.shownAs}`);
    expect(page.url()).toMatch(/\/login$/);
    expect(await page.getByRole('button', { name: run.button }).isEnabled()).toBe(true);
  });

  it('says so when the user closes the popup', async () => {
    const popup = await openPopup();
    await popup.close();
    await expect.poll(alertText).toBe('The sign-in window was closed before the sign-in finished.');
    expect(await page.getByRole('button', { name: run.button }).isEnabled()).toBe(true);
  });

  it('refuses a sign-in whose state does not match the one this browser holds', async () => {
    const popup = await openPopup();
    // A second sign-in started in the same browser replaces the first one's flow.
    const other = await context.newPage();
    await other.goto(`/auth/oidc/${run.provider}/start`);
    await other.getByLabel('Account').waitFor();
    await other.close();

    await popup.getByLabel('Account').fill('ada');
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()]);
    await expect.poll(alertText).toBe(
      'This sign-in could not be verified (its state does not match); please try again',
    );
    expect(await page.getByText('Welcome').count()).toBe(0);
  });

  it('says so when the browser blocks the popup', async () => {
    const blocking = await launchBrowser({ popupBlocker: true });
    try {
      const blocked = await blocking.newPage({ baseURL: server.baseUrl });
      await blocked.goto('/login');
      await blocked.getByRole('button', { name: run.button }).waitFor();
      // Chromium's blocker lets a page open a popup only within 5 s of a user's gesture; this click comes later.
      await blocked.evaluate(
        (name) =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              [...document.querySelectorAll('button')].find((button) => button.textContent === name)?.click();
              resolve();
            }, 5500),
          ),
        run.button,
      );
      await expect
        .poll(() => blocked.getByRole('alert').innerText())
        .toBe('The sign-in window was blocked: allow pop-ups for this site, then try again.');
    } finally {
      await blocking.close();
    }
  });

  it('says so when the provider cannot be reached', async () => {
    await provider.close();
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: run.button }).click()]);
    // The popup may close before the click's promise settles, so its close event is not waited for.
    await expect.poll(alertText).toBe(`${run.shownAs} cannot be reached; please try again later`);
    await expect.poll(() => popup.isClosed()).toBe(true);
  });
});
