import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthReply, SIGN_IN_RESULT_SOURCE } from '../../../../contract/auth.ts';
import { UserRecord } from '../../../../contract/users.ts';
import {
  answerAtProvider,
  startTestIdentityProvider,
  type TestAccount,
  type TestIdentityProvider,
} from '../../test/identity-provider.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../../test/test-app.ts';
import { FLOW_COOKIE } from './oidc.routes.ts';
import { SIGN_IN_FLOW_SECONDS } from './sign-in-flow.ts';

const PUBLIC_URL = 'http://organiser.test';
const CLIENT = { clientId: 'organiser', clientSecret: 'organiser client secret' };
const ADA_PHOTO = 'https://photos.example.org/ada.png';

/** The provider's people; tests change them between sign-ins, as a user edits their profile there. */
const accounts: Record<string, TestAccount> = {};

function resetAccounts() {
  for (const key of Object.keys(accounts)) delete accounts[key];
  Object.assign(accounts, {
    ada: { email: 'Ada@Example.org', email_verified: true, name: 'Ada Lovelace', picture: ADA_PHOTO },
    grace: { email: 'grace@example.org', email_verified: true, name: 'Grace Hopper' },
    mallory: { email: 'boss@example.org', email_verified: false, name: 'Mallory' },
    anonymous: { name: 'No Mail' },
  });
}

let generic: TestIdentityProvider;
let google: TestIdentityProvider;

beforeAll(async () => {
  resetAccounts();
  [generic, google] = await Promise.all([
    startTestIdentityProvider({ ...CLIENT, redirectUris: [`${PUBLIC_URL}/auth/oidc/oidc/callback`], accounts }),
    startTestIdentityProvider({
      ...CLIENT,
      redirectUris: [`${PUBLIC_URL}/auth/oidc/google/callback`],
      accounts,
      claimsInIdToken: true,
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([generic?.close(), google?.close()]);
});

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe.each(testDialects)('sign-in through an identity provider on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let t: TestApp;

  const providerEnv = (extra: Record<string, string> = {}) => ({
    PUBLIC_URL,
    ADMIN_EMAILS: 'boss@example.org',
    OIDC_ISSUER: generic.issuer,
    OIDC_CLIENT_ID: CLIENT.clientId,
    OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    OIDC_NAME: 'Keycloak',
    GOOGLE_ISSUER: google.issuer,
    GOOGLE_CLIENT_ID: CLIENT.clientId,
    GOOGLE_CLIENT_SECRET: CLIENT.clientSecret,
    ...extra,
  });

  beforeEach(async () => {
    resetAccounts();
    database = await createTestDatabase(dialect);
    t = await buildTestApp(database, { env: providerEnv() });
    return async () => {
      await t.close();
      await database.drop();
    };
  });

  async function rebuild(extra: Record<string, string>, logger?: { level: string; stream: { write(line: string): void } }) {
    await t.close();
    t = await buildTestApp(database, { env: providerEnv(extra), clock: t.clock, logger });
  }

  const start = (provider = 'oidc') => t.app.inject({ url: `/auth/oidc/${provider}/start` });

  /** The whole popup: start, the provider's page, the callback with the flow cookie. */
  async function signIn(account: string, { provider = 'oidc', action = 'allow' as 'allow' | 'deny' } = {}) {
    const started = await start(provider);
    expect(started.statusCode).toBe(302);
    const flow = started.cookies.find((cookie) => cookie.name === FLOW_COOKIE);
    const back = await answerAtProvider(String(started.headers.location), { account, action });
    expect(back.origin + back.pathname).toBe(`${PUBLIC_URL}/auth/oidc/${provider}/callback`);
    const callback = await t.app.inject({
      url: back.pathname + back.search,
      cookies: flow ? { [FLOW_COOKIE]: flow.value } : {},
    });
    return { callback, refreshCookie: callback.cookies.find((cookie) => cookie.name === 'organiser_refresh') };
  }

  /** What the callback page posts to its opener. */
  function postedResult(html: string): unknown {
    const attribute = html.match(/data-sign-in-result="([^"]*)"/)?.[1];
    if (attribute === undefined) throw new Error(`no result on the page:\n${html}`);
    return JSON.parse(attribute.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
  }

  async function refreshWith(token: string) {
    const response = await t.app.inject({ method: 'POST', url: '/auth/refresh', cookies: { organiser_refresh: token } });
    expect(response.statusCode).toBe(200);
    return AuthReply.parse(response.json());
  }

  async function me(idToken: string) {
    return UserRecord.parse((await t.app.inject({ url: '/api/users/me', headers: bearer(idToken) })).json());
  }

  const tableCount = async (table: 'users' | 'oidc_identities' | 'sessions') =>
    (await t.storage.db.selectFrom(table).selectAll().execute()).length;

  it('offers the configured providers, and answers 404 for any other', async () => {
    expect((await t.app.inject({ url: '/auth/providers' })).json()).toMatchObject({ google: true, oidc: 'Keycloak' });
    for (const unknown of ['github', 'GOOGLE', 'sign-in-result.js']) {
      const response = await start(unknown);
      expect(response.statusCode).toBe(404);
    }
    await rebuild({ GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '' });
    expect((await start('google')).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/auth/oidc/google/callback?code=x&state=y' })).statusCode).toBe(404);
  });

  it('starts the authorization-code flow with PKCE, state and nonce, kept in a Lax cookie for the callback', async () => {
    const response = await start();
    const location = new URL(String(response.headers.location));
    expect(location.origin).toBe(generic.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT.clientId,
      redirect_uri: `${PUBLIC_URL}/auth/oidc/oidc/callback`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      state: expect.stringMatching(/^[\w-]{20,}$/),
      nonce: expect.stringMatching(/^[\w-]{20,}$/),
    });
    const flow = response.cookies.find((cookie) => cookie.name === FLOW_COOKIE);
    expect(flow).toMatchObject({ path: '/auth/oidc', httpOnly: true, sameSite: 'Lax', maxAge: SIGN_IN_FLOW_SECONDS });
    expect(flow?.value).not.toContain(location.searchParams.get('code_challenge'));
  });

  it('creates the first account from the provider, as admin, and the refresh cookie signs the opener in', async () => {
    const { callback, refreshCookie } = await signIn('ada');

    expect(callback.statusCode).toBe(200);
    expect(callback.headers['content-type']).toMatch(/^text\/html/);
    expect(callback.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    expect(callback.headers['content-security-policy']).toContain("script-src 'self'");
    expect(callback.body).toContain('<script src="/auth/oidc/sign-in-result.js" defer></script>');
    expect(postedResult(callback.body)).toEqual({ source: SIGN_IN_RESULT_SOURCE, ok: true });
    expect(callback.cookies.find((cookie) => cookie.name === FLOW_COOKIE)?.value).toBe('');
    expect(refreshCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/auth' });

    const auth = await refreshWith(refreshCookie!.value);
    expect(auth.user).toMatchObject({ email: 'ada@example.org', displayName: 'Ada Lovelace', admin: true });
    expect(await me(auth.idToken)).toMatchObject({ displayName: 'Ada Lovelace', photo: ADA_PHOTO, timezone: null });
    const identity = await t.storage.db.selectFrom('oidc_identities').selectAll().executeTakeFirstOrThrow();
    expect(identity).toMatchObject({ issuer: generic.issuer, subject: 'ada', user_id: auth.user.uid });
  });

  it('finds the same user by issuer and subject next time, with name, e-mail and photo from the provider', async () => {
    const first = await refreshWith((await signIn('ada')).refreshCookie!.value);
    Object.assign(accounts.ada!, { name: 'Ada King', email: 'ada@lovelace.example', picture: undefined });

    const again = await refreshWith((await signIn('ada')).refreshCookie!.value);

    expect(again.user.uid).toBe(first.user.uid);
    expect(await me(again.idToken)).toMatchObject({ displayName: 'Ada King', email: 'ada@lovelace.example', photo: null });
    expect(await tableCount('users')).toBe(1);
    expect(await tableCount('oidc_identities')).toBe(1);
  });

  it('stands in for Google, whose ID token carries the profile itself', async () => {
    const { callback, refreshCookie } = await signIn('ada', { provider: 'google' });
    expect(postedResult(callback.body)).toEqual({ source: SIGN_IN_RESULT_SOURCE, ok: true });
    const auth = await refreshWith(refreshCookie!.value);
    expect(await me(auth.idToken)).toMatchObject({ displayName: 'Ada Lovelace', photo: ADA_PHOTO });
    const identity = await t.storage.db.selectFrom('oidc_identities').selectAll().executeTakeFirstOrThrow();
    expect(identity.issuer).toBe(google.issuer);
  });

  it('links an existing local account when the provider has verified its e-mail', async () => {
    const local = await registerUser(t.app, { email: 'grace@example.org', displayName: 'G. Hopper' });

    const auth = await refreshWith((await signIn('grace')).refreshCookie!.value);

    expect(auth.user).toMatchObject({ uid: local.user.uid, displayName: 'Grace Hopper', admin: true });
    expect(await tableCount('users')).toBe(1);
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'grace@example.org', password: local.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it('refuses an unverified e-mail: it neither takes over an account nor opens one', async () => {
    await registerUser(t.app, { email: 'boss@example.org', displayName: 'The Boss' });
    const { callback, refreshCookie } = await signIn('mallory');
    expect(callback.statusCode).toBe(403);
    expect(postedResult(callback.body)).toEqual({
      source: SIGN_IN_RESULT_SOURCE,
      ok: false,
      message: 'Keycloak has not verified your e-mail address boss@example.org; verify it there and try again',
    });
    expect(refreshCookie).toBeUndefined();
    expect(await tableCount('oidc_identities')).toBe(0);
    const boss = await t.storage.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(boss.display_name).toBe('The Boss');
  });

  it('opens no new account once sign-up is closed, unless ALLOW_SIGNUP is set', async () => {
    await registerUser(t.app);
    const closed = await signIn('grace');
    expect(closed.callback.statusCode).toBe(403);
    expect(postedResult(closed.callback.body)).toMatchObject({
      ok: false,
      message: 'Sign-up is closed on this installation: no account here uses grace@example.org',
    });
    expect(await tableCount('users')).toBe(1);

    await rebuild({ ALLOW_SIGNUP: 'true' });
    const open = await refreshWith((await signIn('grace')).refreshCookie!.value);
    expect(open.user).toMatchObject({ email: 'grace@example.org', admin: false });
  });

  it('says so when the provider shares no e-mail address', async () => {
    const { callback } = await signIn('anonymous');
    expect(callback.statusCode).toBe(400);
    expect(postedResult(callback.body)).toMatchObject({
      ok: false,
      message: 'Keycloak did not share your e-mail address; allow it to and try again',
    });
    expect(await tableCount('users')).toBe(0);
  });

  it('reports a denied consent, and signs no one in', async () => {
    const { callback, refreshCookie } = await signIn('ada', { action: 'deny' });
    expect(callback.statusCode).toBe(403);
    expect(postedResult(callback.body)).toMatchObject({ ok: false, message: 'Sign-in was cancelled at Keycloak' });
    expect(refreshCookie).toBeUndefined();
    expect(await tableCount('users')).toBe(0);
  });

  it('refuses a callback whose state does not match, one without its flow cookie, and one too late', async () => {
    const started = await start();
    const flow = started.cookies.find((cookie) => cookie.name === FLOW_COOKIE)!;
    const back = await answerAtProvider(String(started.headers.location), { account: 'ada' });
    const callback = (search: string, cookies: Record<string, string>) =>
      t.app.inject({ url: back.pathname + search, cookies });

    const forged = new URLSearchParams(back.search);
    forged.set('state', 'forged-state-value');
    const mismatch = await callback(`?${forged}`, { [FLOW_COOKIE]: flow.value });
    expect(postedResult(mismatch.body)).toMatchObject({
      ok: false,
      message: 'This sign-in could not be verified (its state does not match); please try again',
    });

    const notStartedHere = await callback(back.search, {});
    const tampered = await callback(back.search, { [FLOW_COOKIE]: `${flow.value.slice(0, -2)}xx` });
    t.clock.advance((SIGN_IN_FLOW_SECONDS + 1) * 1000);
    const late = await callback(back.search, { [FLOW_COOKIE]: flow.value });
    for (const refused of [notStartedHere, tampered, late]) {
      expect(refused.statusCode).toBe(400);
      expect(postedResult(refused.body)).toMatchObject({
        ok: false,
        message: 'This sign-in took too long or was not started in this browser; please try again',
      });
    }
    expect(await tableCount('users')).toBe(0);
    expect(await tableCount('sessions')).toBe(0);
  });

  it('ends on the result page, not a hang, when the provider cannot be reached', async () => {
    await rebuild({ OIDC_ISSUER: `http://127.0.0.1:${await closedPort()}` });
    const response = await start();
    expect(response.statusCode).toBe(502);
    expect(response.cookies.find((cookie) => cookie.name === FLOW_COOKIE)).toBeUndefined();
    expect(postedResult(response.body)).toEqual({
      source: SIGN_IN_RESULT_SOURCE,
      ok: false,
      message: 'Keycloak cannot be reached; please try again later',
    });
  });

  it('notices a provider that has gone down since the last sign-in, before sending the popup there', async () => {
    const shortLived = await startTestIdentityProvider({
      ...CLIENT,
      redirectUris: [`${PUBLIC_URL}/auth/oidc/oidc/callback`],
      accounts,
    });
    await rebuild({ OIDC_ISSUER: shortLived.issuer });
    expect((await start()).statusCode).toBe(302);

    await shortLived.close();

    const response = await start();
    expect(response.statusCode).toBe(502);
    expect(postedResult(response.body)).toMatchObject({
      ok: false,
      message: 'Keycloak cannot be reached; please try again later',
    });
  });

  it('without PUBLIC_URL, sends the provider back to the one address it listens on, never to the Host header', async () => {
    await rebuild({ PUBLIC_URL: '', HOST: '127.0.0.1', PORT: '8123' });
    const started = await t.app.inject({ url: '/auth/oidc/oidc/start', headers: { host: 'evil.example' } });
    expect(started.statusCode).toBe(302);
    const redirectUri = new URL(String(started.headers.location)).searchParams.get('redirect_uri');
    expect(redirectUri).toBe('http://127.0.0.1:8123/auth/oidc/oidc/callback');
  });

  it('without PUBLIC_URL on every interface, refuses provider sign-in and says why in the log', async () => {
    const logged: string[] = [];
    await rebuild({ PUBLIC_URL: '' }, { level: 'error', stream: { write: (line) => logged.push(line) } });
    const started = await t.app.inject({ url: '/auth/oidc/google/start', headers: { host: 'evil.example' } });
    expect(started.statusCode).toBe(503);
    expect(started.headers.location).toBeUndefined();
    expect(postedResult(started.body)).toMatchObject({
      ok: false,
      message: 'Sign-in with Google is not set up on this server: its PUBLIC_URL is not set',
    });
    expect((await t.app.inject({ url: '/auth/providers' })).json()).toMatchObject({ google: false, oidc: null });
    expect(logged.map((line) => JSON.parse(line).msg)).toContainEqual(expect.stringMatching(/^Sign-in with Google and Keycloak is off: set PUBLIC_URL/));
  });

  it('serves the script that posts the result, under the strict policy', async () => {
    const response = await t.app.inject({ url: '/auth/oidc/sign-in-result.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/javascript/);
    expect(response.body).toContain('window.opener.postMessage(result, window.location.origin)');
  });
});
