import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppPasswords } from '../../contract/app-passwords.ts';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const PASSWORD = 'a long enough password';
const EMAIL = 'reader@example.org';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The catalogue's root as an e-reader asks for it: HTTP Basic with the e-mail and a password. */
const opdsWith = (password: string) =>
  fetch(`${server.baseUrl}/opds`, { headers: { authorization: `Basic ${Buffer.from(`${EMAIL}:${password}`).toString('base64')}` } });

const rows = (page: Page) => page.locator('#app-passwords tr.app-password');

describe('app passwords in the profile, end to end', () => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: server.baseUrl });
    page = await context.newPage();
    problems = (await watchForErrors(page)).problems;
    return async () => {
      await context.close();
      expect(problems).toEqual([]);
    };
  });

  it('creates an app password shown once that an e-reader signs in with, lists its last use, and revokes it', async () => {
    const api = apiAs(server.baseUrl, await createAccount(server.baseUrl, { email: EMAIL, password: PASSWORD, displayName: 'Reader' }));
    await signIn(page, { email: EMAIL, password: PASSWORD });
    await page.goto('/profile');
    await page.locator('#app-passwords-none').waitFor();

    await page.getByLabel('New app password').fill('KOReader on the Kobo');
    await page.locator('#app-passwords').getByRole('button', { name: 'Create', exact: true }).click();
    const shown = page.locator('#app-password-value');
    await shown.waitFor();
    const password = (await shown.innerText()).trim();
    expect(password).toMatch(/^([a-z2-7]{4}-){6}[a-z2-7]{2}$/);
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().innerText()).toContain('KOReader on the Kobo');
    expect(await rows(page).first().innerText()).toContain('Never');

    const signed = await opdsWith(password);
    expect(signed.status).toBe(200);
    expect(signed.headers.get('content-type')).toContain('kind=navigation');
    const listed = AppPasswords.parse(await (await api('/api/users/me/app-passwords', 'GET')).json());
    expect(listed[0]?.last_used_at).not.toBeNull();

    // Shown once: after a reload the list has it by name only.
    await page.reload();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await page.locator('#app-password-value').count()).toBe(0);
    expect(await rows(page).first().innerText()).not.toContain('Never');
    expect(await page.content()).not.toContain(password);

    await rows(page).first().getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.locator('#app-passwords-none').waitFor();
    const refused = await opdsWith(password);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic realm="Organiser"/);
  });
});
