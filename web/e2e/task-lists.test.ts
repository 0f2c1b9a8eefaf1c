import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { createAccount, type PageWatch, signIn, watchForErrors } from './helpers.ts';
import { type RunningServer, startServer } from './server.ts';

const OLIVE = { displayName: 'Olive Owner', email: 'olive@example.org', password: 'chores for the household' };
const SAM = { displayName: 'Sam Member', email: 'sam@example.org', password: 'a list shared with me' };
const POLL = { timeout: 30_000 };

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ALLOW_SIGNUP: 'true' }), launchBrowser()]);
  await createAccount(server.baseUrl, OLIVE);
  await createAccount(server.baseUrl, SAM);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** What the task list's row of `name` says about whose turn it is. */
async function turnOn(page: Page, name: string): Promise<string> {
  await page.goto('/task');
  // Waited for: someone else's turn is named once the account's lists have loaded beside its tasks.
  const turn = page.locator('.task-row').filter({ hasText: name }).locator('.task-turn');
  await turn.waitFor();
  return turn.innerText();
}

describe('household task lists (issue 40), end to end', () => {
  const opened: Array<{ context: BrowserContext; seen: PageWatch }> = [];
  async function open(): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    const page = await context.newPage();
    opened.push({ context, seen: await watchForErrors(page) });
    return page;
  }
  afterAll(async () => {
    for (const { context, seen } of opened) {
      await context.close();
      expect(seen.problems).toEqual([]);
    }
  });

  it('shares a list by e-mail, and a rotating task goes from one account to the other as each completes it', async () => {
    const olive = await open();
    await signIn(olive, OLIVE);
    await olive.goto('/task');
    await olive.locator('#task-lists-link').click();
    await olive.getByLabel('New list').fill('Household');
    await olive.locator('#task-list-create').click();
    const entry = olive.locator('#my-task-lists .task-list-entry[data-list="Household"]');
    await entry.waitFor();
    await entry.getByLabel('e-mail address').fill(SAM.email);
    await entry.getByRole('button', { name: 'Add' }).click();
    await entry.getByRole('button', { name: 'Save sharing' }).click();
    await expect.poll(() => entry.locator('small').first().innerText(), POLL).toBe('People: Olive Owner, Sam Member');

    // A task made in the list, then set to go round both of them.
    await entry.getByRole('link', { name: 'Household' }).click();
    await olive.locator('#task-new').click();
    await olive.getByPlaceholder('Task name').fill('Take out the bins');
    await olive.getByLabel('First due').fill('2030-03-06T09:00');
    await expect.poll(() => olive.getByLabel('List').inputValue(), POLL).not.toBe('');
    await olive.getByRole('button', { name: 'Create' }).click();
    await olive.waitForURL(/\/task\/[0-9a-f-]{36}$/);
    await expect.poll(() => olive.locator('#task-list_id').innerText(), POLL).toBe('Household');
    await olive.locator('#task-rotation').click();
    await olive.getByLabel('Olive Owner').check();
    await olive.getByLabel('Sam Member').check();
    await olive.locator('dd[data-field="rotation"]').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => olive.locator('#task-rotation').innerText(), POLL).toBe('you → Sam Member');
    await expect.poll(() => olive.locator('#task-turn').innerText(), POLL).toBe('Your turn');
    await olive.locator('dd[data-field="emails"]').getByText('you (whose turn it is)').waitFor();

    // Sam sees it in his list, in the list Olive shares, with Olive's turn.
    const sam = await open();
    await signIn(sam, SAM);
    expect(await turnOn(sam, 'Take out the bins')).toBe("Olive Owner's turn");
    await sam.locator('.task-row').filter({ hasText: 'Take out the bins' }).locator('.task-list-badge').getByText('Household').waitFor();

    // Olive completes it: Sam's turn; Sam completes it from his list: Olive's again.
    await olive.getByRole('button', { name: 'Complete' }).click();
    await expect.poll(() => olive.locator('#task-turn').innerText(), POLL).toBe("Sam Member's turn");
    expect(await turnOn(sam, 'Take out the bins')).toBe('Your turn');
    await sam.getByRole('checkbox', { name: 'Complete Take out the bins' }).click();
    await expect.poll(() => sam.locator('.task-row').filter({ hasText: 'Take out the bins' }).locator('.task-turn').innerText(), POLL).toBe("Olive Owner's turn");
    expect(await turnOn(olive, 'Take out the bins')).toBe('Your turn');
  });
});
