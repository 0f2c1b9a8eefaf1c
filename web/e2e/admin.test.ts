import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Invitation } from '../../contract/admin.ts';
import { launchBrowser } from './browser.ts';
import { apiAs, createAccount, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const PASSWORD = 'a long enough password';
const ADMIN = { email: 'admin@example.org', password: PASSWORD, displayName: 'Ada' };

let server: RunningServer;
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  // Sign-up closed: only the first account (the administrator) and invited ones can be made.
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'false' }), launchBrowser()]);
  adminToken = await createAccount(server.baseUrl, ADMIN);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A browser context of its own (its own cookies: another person), watched for errors. */
async function person(expected: RegExp[] = []) {
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  const { problems } = await watchForErrors(page, expected);
  return { context, page, problems };
}

/** The row of an account in the administration's list. */
const accountRow = (page: Page, email: string) => page.locator(`tr[data-email="${email}"]`);

describe('administration, end to end', () => {
  let contexts: Array<{ context: BrowserContext; problems: string[] }>;

  beforeEach(() => {
    contexts = [];
    return async () => {
      for (const { context } of contexts) await context.close();
      expect(contexts.flatMap(({ problems }) => problems)).toEqual([]);
    };
  });
  const open = async (expected: RegExp[] = []) => {
    const opened = await person(expected);
    contexts.push(opened);
    return opened;
  };

  it('invites by a link to copy; the invited person signs up through it with sign-up closed, and shows in the list', async () => {
    const admin = await open();
    await signIn(admin.page, ADMIN);
    await admin.page.getByRole('link', { name: 'Administration' }).click();
    await admin.page.waitForURL((url) => url.pathname === '/admin');
    await admin.page.getByLabel('E-mail to invite').fill('dee@example.org');
    await admin.page.getByRole('button', { name: 'Create invitation' }).click();
    const link = await admin.page.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(/\/join\?token=[A-Za-z0-9_-]{43}$/);
    await expect
      .poll(() => admin.page.getByText('Send this link to dee@example.org.', { exact: false }).count(), { timeout: 15_000 })
      .toBe(1);

    const dee = await open();
    await dee.page.goto(link);
    await expect.poll(() => dee.page.getByText('You are invited to Organiser as dee@example.org.').count(), { timeout: 15_000 }).toBe(1);
    await dee.page.getByLabel('Name').fill('Dee');
    await dee.page.getByLabel('Password').fill(PASSWORD);
    await dee.page.getByRole('button', { name: 'Create account' }).click();
    await dee.page.waitForURL((url) => url.pathname === '/book', { timeout: 15_000 });

    await admin.page.reload();
    const row = accountRow(admin.page, 'dee@example.org');
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    expect(await row.locator('td').nth(0).innerText()).toBe('Dee');
    expect(await row.locator('td').nth(3).innerText()).toBe('password');

    // The link was used: opening it again says so.
    const late = await open([/status of 404/]);
    await late.page.goto(link);
    await expect
      .poll(() => late.page.getByText('This invitation has been used or has expired', { exact: false }).count(), { timeout: 15_000 })
      .toBe(1);
  });

  it('lists the pending invitations and revokes one: its link then answers as an unknown one', async () => {
    const admin = await open();
    await signIn(admin.page, ADMIN);
    await admin.page.goto('/admin');
    for (const email of ['fay@example.org', 'gil@example.org']) {
      await admin.page.getByLabel('E-mail to invite').fill(email);
      await admin.page.getByRole('button', { name: 'Create invitation' }).click();
      await expect.poll(() => admin.page.getByText(`Send this link to ${email}.`, { exact: false }).count(), { timeout: 15_000 }).toBe(1);
    }
    const link = await admin.page.getByLabel('Invitation link').inputValue();

    const pending = admin.page.getByRole('table', { name: 'Pending invitations' });
    const row = (email: string) => pending.locator(`tr[data-email="${email}"]`);
    await expect.poll(() => row('gil@example.org').count(), { timeout: 15_000 }).toBe(1);
    const cells = await row('gil@example.org').locator('td').allInnerTexts();
    expect(cells.slice(0, 2)).toEqual(['gil@example.org', 'Ada']);
    // Sent now, expiring in seven days: both shown as dates.
    expect(cells[2]).toMatch(/\d/);
    expect(cells[3]).toMatch(/\d/);
    expect(cells[3]).not.toBe(cells[2]);

    await row('gil@example.org').getByRole('button', { name: 'Revoke the invitation of gil@example.org' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Revoke invitation' });
    await dialog.getByText('The link sent to gil@example.org will no longer work.').waitFor();
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row('gil@example.org').count(), { timeout: 15_000 }).toBe(0);
    expect(await row('fay@example.org').count()).toBe(1);

    // The revoked link, opened: the page says what it says of a used or expired one.
    const gil = await open([/status of 404/]);
    await gil.page.goto(link);
    await expect
      .poll(() => gil.page.getByText('This invitation has been used or has expired', { exact: false }).count(), { timeout: 15_000 })
      .toBe(1);
  });

  it('disables a user whose page is open: that page lands on the login page', async () => {
    const admin = apiAs(server.baseUrl, adminToken);
    const invited = Invitation.parse(await (await admin('/api/admin/invitations', 'POST', { email: 'eve@example.org' })).json());
    const token = new URL(invited.url).searchParams.get('token');
    const registered = await fetch(`${server.baseUrl}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'eve@example.org', password: PASSWORD, displayName: 'Eve', invitation: token }),
    });
    expect(registered.status).toBe(200);

    // The refused stream and refresh are the sign-out itself.
    const eve = await open([/status of 40[13]/]);
    await signIn(eve.page, { email: 'eve@example.org', password: PASSWORD });
    await eve.page.goto('/task');
    await eve.page.waitForURL((url) => url.pathname === '/task');

    const ada = await open();
    await signIn(ada.page, ADMIN);
    await ada.page.goto('/admin');
    const row = accountRow(ada.page, 'eve@example.org');
    await row.getByRole('button', { name: 'Actions for eve@example.org' }).click();
    await row.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => row.locator('td').nth(8).innerText(), { timeout: 15_000 }).toBe('Disabled');

    await eve.page.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
    await eve.page.getByLabel('E-mail').fill('eve@example.org');
    await eve.page.getByLabel('Password').fill(PASSWORD);
    await eve.page.getByRole('button', { name: 'Log in' }).click();
    // The refusal comes after the password's hash is checked, which a loaded machine can take seconds over.
    await expect
      .poll(() => eve.page.getByText('This account has been disabled; ask an administrator').count(), { timeout: 15_000 })
      .toBe(1);
  });
});
