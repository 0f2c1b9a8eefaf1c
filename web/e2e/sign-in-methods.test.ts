import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIdentityProvider, type TestIdentityProvider } from '../../server/src/test/identity-provider.ts';
import { launchBrowser } from './browser.ts';
import { createAccount, signIn, watchForErrors } from './helpers.ts';
import { freePort, type RunningServer, startServer } from './server.ts';

const CLIENT = { clientId: 'organiser', clientSecret: 'organiser client secret' };
const ACCOUNT = { email: 'lovelace@example.org', password: 'a long enough password', displayName: 'Ada Lovelace' };

let server: RunningServer;
let provider: TestIdentityProvider;
let browser: Browser;

beforeAll(async () => {
  // The provider must know the app's redirect URI and the app the provider's issuer: its port comes first.
  const providerPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({
      OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      OIDC_NAME: 'Keycloak',
    }),
    launchBrowser(),
  ]);
  provider = await startTestIdentityProvider({
    ...CLIENT,
    port: providerPort,
    redirectUris: [`${server.baseUrl}/auth/oidc/oidc/callback`],
    // Not the account's e-mail: a link needs none in common.
    accounts: { ada: { email: 'ada@provider.example', email_verified: true, name: 'Ada at the provider' } },
  });
  await createAccount(server.baseUrl, ACCOUNT);
});
afterAll(async () => {
  await browser?.close();
  await provider?.close();
  await server?.stop();
});

/** Answers the provider's page in its popup as `account`, and waits for the popup to close. */
async function answerInPopup(popup: Page, account: string) {
  await popup.getByLabel('Account').fill(account);
  await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()]);
}

describe('the profile’s sign-in methods, end to end', () => {
  it('links a provider through its popup, which then signs in to this account, and unlinks it', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    const page = await context.newPage();
    const { problems } = await watchForErrors(page);
    await signIn(page, ACCOUNT);
    await page.getByRole('link', { name: 'Profile' }).click();
    const section = page.locator('#sign-in-methods');
    const linkButton = section.getByRole('button', { name: 'Link Keycloak' });
    await linkButton.waitFor();
    expect(await section.locator('#sign-in-password').innerText()).toContain('Set');
    expect(await section.locator('tr.linked-identity').count()).toBe(0);

    const [popup] = await Promise.all([page.waitForEvent('popup'), linkButton.click()]);
    await answerInPopup(popup, 'ada');

    const linked = section.locator('tr.linked-identity');
    await expect.poll(() => linked.count()).toBe(1);
    expect(await linked.locator('td').first().innerText()).toBe('Keycloak');
    expect(await linkButton.count()).toBe(0);
    // The account has a password, so the provider is not its last way in.
    expect(await linked.getByRole('button', { name: 'Unlink' }).isEnabled()).toBe(true);

    // Another browser signs in with the provider and lands on this account.
    const elsewhere = await browser.newContext({ baseURL: server.baseUrl });
    const other = await elsewhere.newPage();
    await other.goto('/login');
    const [otherPopup] = await Promise.all([
      other.waitForEvent('popup'),
      other.getByRole('button', { name: 'Sign in with Keycloak' }).click(),
    ]);
    await answerInPopup(otherPopup, 'ada');
    // The name follows the provider at every sign-in (docs/behaviour/accounts-and-sign-in.md); the user id says which account it is.
    await other.getByText('Welcome Ada at the provider').waitFor();
    await other.getByRole('link', { name: 'Profile' }).click();
    expect(await other.locator('#profile-uid').innerText()).toBe(await page.locator('#profile-uid').innerText());
    await elsewhere.close();

    await linked.getByRole('button', { name: 'Unlink' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unlink Keycloak?' });
    await dialog.getByRole('button', { name: 'Unlink' }).click();
    await expect.poll(() => linked.count()).toBe(0);
    await linkButton.waitFor();
    expect(await page.locator('#sign-in-methods-error').count()).toBe(0);

    await context.close();
    expect(problems).toEqual([]);
  });
});
