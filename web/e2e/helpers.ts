import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export interface Credentials {
  email: string;
  password: string;
}

/** What a page must never do, as the watcher saw it. */
export interface PageWatch {
  /** Script errors, CSP violations and console errors that no pattern of `expected` allows. */
  problems: string[];
  /** Dialogs the page (a book comment, say) opened; each is dismissed. */
  dialogs: string[];
  /** Console errors a test expects, such as the failed request of a refused call; a test may add its own. */
  expected: RegExp[];
}

/**
 * Not every CSP refusal reaches the console; this event reports each one. The flag keeps it to one
 * listener per document when several pages of one browser context are watched.
 */
function reportCspViolations() {
  const watched = window as unknown as { cspViolationsReported?: boolean };
  if (watched.cspViolationsReported) return;
  watched.cspViolationsReported = true;
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
  });
}

function listen(page: Page, watch: PageWatch) {
  page.on('pageerror', (error) => watch.problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && !watch.expected.some((pattern) => pattern.test(text))) watch.problems.push(text);
  });
  page.on('dialog', (dialog) => {
    watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // A sign-in popup's errors count as the page's own.
  page.on('popup', (popup) => listen(popup, watch));
}

/**
 * Watches a page, and the popups it opens, for script errors, CSP violations and console errors.
 * Call it before the page's first navigation: the CSP listener is installed in documents loaded
 * after it (it is the browser context's, so popups have it from their first document).
 */
export async function watchForErrors(page: Page, expected: RegExp[] = []): Promise<PageWatch> {
  const watch: PageWatch = { problems: [], dialogs: [], expected: [...expected] };
  await page.context().addInitScript(reportCspViolations);
  listen(page, watch);
  return watch;
}

/** Fills the login form on the page and submits it. */
export async function submitLogin(page: Page, { email, password }: Credentials): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Signs in from /login and waits for the page the app lands on, /book. */
export async function signIn(page: Page, credentials: Credentials): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, credentials);
  await page.waitForURL((url) => url.pathname === '/book');
}

/** Creates an account through the API (the server must allow it); its bearer token, for calls outside the browser. */
export async function createAccount(baseUrl: string, account: Credentials & { displayName: string }): Promise<string> {
  const registered = await fetch(`${baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  expect(registered.status).toBe(200);
  const { idToken } = (await registered.json()) as { idToken: string };
  return idToken;
}

/**
 * Puts an account's book search settings back to the specification's defaults: they are kept on
 * the server (issue 37), so a browser context of its own no longer starts afresh. Signs in through
 * the API for a token.
 */
export async function resetBookSearchSettings(baseUrl: string, { email, password }: Credentials): Promise<void> {
  const login = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (login.status !== 200) return;
  const { idToken } = (await login.json()) as { idToken: string };
  const defaults = { fields: ['title'], size: 10, format: '', comment: false, sort: 'updated', view: 'list' };
  expect((await apiAs(baseUrl, idToken)('/api/books/search-settings', 'PUT', defaults)).status).toBe(200);
}

/** Calls made outside the browser with an account's bearer token, JSON in and out. */
export function apiAs(baseUrl: string, idToken: string) {
  return (path: string, method = 'GET', body?: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

/** The profile's timezone as chosen: the select's form value. */
export const chosenTimezone = (page: Page): Promise<string> => page.locator('input[name="timezone"]').inputValue();

/** Chooses a zone in the profile's searchable select, typing `search` and clicking the option labelled `label`. */
export async function chooseTimezone(page: Page, search: string, label = search): Promise<void> {
  await page.getByLabel('Timezone').fill(search);
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** The labels of the profile's timezone options, read from its opened menu. */
export async function timezoneOptions(page: Page): Promise<string[]> {
  await page.getByLabel('Timezone').click();
  const labels = await page.locator('.timezone__option').allInnerTexts();
  await page.keyboard.press('Escape');
  return labels;
}

/**
 * Makes the saved session's bearer token one that no longer verifies. The app saves its state
 * half a second after a change and again when the page goes away, so an edit made while it runs
 * can be written over by the token it still holds. The page first leaves the app for a JSON
 * document of the same origin, where nothing saves; the caller navigates back.
 */
export async function expireSavedToken(page: Page): Promise<void> {
  await page.goto('/api/health');
  await page.evaluate(() => {
    const state = JSON.parse(localStorage.getItem('organiser.state') ?? '{}');
    state.auth.idToken = 'expired.token.value';
    localStorage.setItem('organiser.state', JSON.stringify(state));
  });
}

/** Waits until a server following a Calibre library folder has loaded it (`/api/health`'s `library.last_load`). */
export async function libraryLoaded(baseUrl: string): Promise<void> {
  for (const until = Date.now() + 30_000; ; ) {
    const health = (await (await fetch(`${baseUrl}/api/health`)).json()) as { library?: { last_load: { status: string } | null } };
    if (health.library?.last_load?.status === 'ok') return;
    if (Date.now() > until) throw new Error(`the library was not loaded: ${JSON.stringify(health)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
