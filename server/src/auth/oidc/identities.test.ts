import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthReply, SIGN_IN_RESULT_SOURCE } from '../../../../contract/auth.ts';
import { SignInMethods } from '../../../../contract/sign-in-methods.ts';
import { UserRecord } from '../../../../contract/users.ts';
import {
  answerAtProvider,
  startTestIdentityProvider,
  type TestAccount,
  type TestIdentityProvider,
} from '../../test/identity-provider.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../../test/test-app.ts';
import { LINK_COOKIE } from './link-cookie.ts';
import { LINK_INTENT_SECONDS } from './link-intents.ts';
import { FLOW_COOKIE } from './oidc.routes.ts';

const PUBLIC_URL = 'http://organiser.test';
const CLIENT = { clientId: 'organiser', clientSecret: 'organiser client secret' };
const ACCOUNTS: Record<string, TestAccount> = {
  ada: { email: 'ada@provider.example', email_verified: true, name: 'Ada at the provider' },
  grace: { email: 'grace@example.org', email_verified: true, name: 'Grace Hopper' },
};
const LAST_WAY_IN = (name: string) =>
  `Cannot unlink ${name}: it is the only way to sign in to this account; set a password or link another provider first`;

let generic: TestIdentityProvider;
let google: TestIdentityProvider;

beforeAll(async () => {
  [generic, google] = await Promise.all([
    startTestIdentityProvider({ ...CLIENT, redirectUris: [`${PUBLIC_URL}/auth/oidc/oidc/callback`], accounts: ACCOUNTS }),
    startTestIdentityProvider({
      ...CLIENT,
      redirectUris: [`${PUBLIC_URL}/auth/oidc/google/callback`],
      accounts: ACCOUNTS,
      claimsInIdToken: true,
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([generic?.close(), google?.close()]);
});

describe.each(testDialects)('linking and unlinking sign-in providers on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let t: TestApp;

  const providerEnv = (extra: Record<string, string> = {}) => ({
    PUBLIC_URL,
    ALLOW_SIGNUP: 'true',
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
    database = await createTestDatabase(dialect);
    t = await buildTestApp(database, { env: providerEnv() });
    return async () => {
      await t.close();
      await database.drop();
    };
  });

  async function rebuild(extra: Record<string, string>) {
    await t.close();
    t = await buildTestApp(database, { env: providerEnv(extra), clock: t.clock });
  }

  /** What the popup's last page posts to its opener. */
  function postedResult(html: string): unknown {
    const attribute = html.match(/data-sign-in-result="([^"]*)"/)?.[1];
    if (attribute === undefined) throw new Error(`no result on the page:\n${html}`);
    return JSON.parse(attribute.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
  }

  const askToLink = (idToken: string, provider: string) =>
    t.app.inject({ method: 'POST', url: '/api/users/me/identities', headers: bearer(idToken), payload: { provider } });

  /** The popup after the profile's call: start with the intent's cookie, the provider's page, the callback. */
  async function popup(provider: string, account: string, linkCookie: string | undefined, { intent = 'link' } = {}) {
    const started = await t.app.inject({
      url: `/auth/oidc/${provider}/start${intent ? `?intent=${intent}` : ''}`,
      cookies: linkCookie === undefined ? {} : { [LINK_COOKIE]: linkCookie },
    });
    if (started.statusCode !== 302) return { page: started, started };
    const flow = started.cookies.find((cookie) => cookie.name === FLOW_COOKIE)!;
    const back = await answerAtProvider(String(started.headers.location), { account });
    const page = await t.app.inject({ url: back.pathname + back.search, cookies: { [FLOW_COOKIE]: flow.value } });
    return { page, started };
  }

  /** The whole link, as the profile's Link button runs it. */
  async function link(idToken: string, provider: string, account: string) {
    const asked = await askToLink(idToken, provider);
    expect(asked.statusCode).toBe(204);
    return (await popup(provider, account, asked.cookies.find((cookie) => cookie.name === LINK_COOKIE)?.value)).page;
  }

  async function signInWith(provider: string, account: string) {
    const { page } = await popup(provider, account, undefined, { intent: '' });
    return { page, refreshCookie: page.cookies.find((cookie) => cookie.name === 'organiser_refresh') };
  }

  async function refreshWith(token: string) {
    const response = await t.app.inject({ method: 'POST', url: '/auth/refresh', cookies: { organiser_refresh: token } });
    expect(response.statusCode).toBe(200);
    return AuthReply.parse(response.json());
  }

  async function methods(idToken: string) {
    const response = await t.app.inject({ url: '/api/users/me/identities', headers: bearer(idToken) });
    expect(response.statusCode).toBe(200);
    return SignInMethods.parse(response.json());
  }

  const unlink = (idToken: string, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/users/me/identities/${id}`, headers: bearer(idToken) });

  const identityRows = () => t.storage.db.selectFrom('oidc_identities').selectAll().execute();

  it('links a provider to the signed-in account, and signing in with it then opens that account as it is', async () => {
    const local = await registerUser(t.app, { email: 'lovelace@example.org', displayName: 'Ada Lovelace' });
    const before = await methods(local.idToken);
    expect(before).toEqual({
      password: true,
      identities: [],
      providers: [
        { id: 'google', name: 'Google' },
        { id: 'oidc', name: 'Keycloak' },
      ],
    });

    const asked = await askToLink(local.idToken, 'oidc');
    expect(asked.cookies.find((cookie) => cookie.name === LINK_COOKIE)).toMatchObject({
      path: '/auth/oidc',
      httpOnly: true,
      sameSite: 'Strict',
      maxAge: LINK_INTENT_SECONDS,
    });
    const { page, started } = await popup('oidc', 'ada', asked.cookies.find((cookie) => cookie.name === LINK_COOKIE)!.value);
    expect(started.cookies.find((cookie) => cookie.name === LINK_COOKIE)?.value).toBe('');
    expect(page.statusCode).toBe(200);
    expect(postedResult(page.body)).toEqual({ source: SIGN_IN_RESULT_SOURCE, ok: true });
    expect(page.body).toContain('The account is linked.');
    // Linking signs no one in: the page that asked keeps its own session.
    expect(page.cookies.find((cookie) => cookie.name === 'organiser_refresh')).toBeUndefined();

    const after = await methods(local.idToken);
    expect(after.identities).toEqual([
      {
        id: expect.any(String),
        provider: 'oidc',
        name: 'Keycloak',
        linkedAt: new Date(t.clock.now()).toISOString(),
        lastSignInAt: new Date(t.clock.now()).toISOString(),
        canUnlink: true,
      },
    ]);

    const { refreshCookie } = await signInWith('oidc', 'ada');
    const signedIn = await refreshWith(refreshCookie!.value);
    expect(signedIn.user.uid).toBe(local.user.uid);
    expect((await t.storage.db.selectFrom('users').selectAll().execute()).length).toBe(1);
  });

  it('leaves the name and e-mail alone when linking, since linking is no sign-in', async () => {
    const local = await registerUser(t.app, { email: 'lovelace@example.org', displayName: 'Ada Lovelace' });
    await link(local.idToken, 'google', 'ada');
    const me = UserRecord.parse((await t.app.inject({ url: '/api/users/me', headers: bearer(local.idToken) })).json());
    expect(me).toMatchObject({ displayName: 'Ada Lovelace', email: 'lovelace@example.org' });
    expect((await identityRows()).map((row) => row.issuer)).toEqual([google.issuer]);
  });

  it('unlinks a provider, which then no longer opens the account', async () => {
    const local = await registerUser(t.app, { email: 'lovelace@example.org' });
    await link(local.idToken, 'oidc', 'ada');
    const [identity] = (await methods(local.idToken)).identities;

    const response = await unlink(local.idToken, identity!.id);

    expect(response.statusCode).toBe(204);
    expect((await methods(local.idToken)).identities).toEqual([]);
    expect(await identityRows()).toEqual([]);
    // Ada's provider account is a stranger again: it opens an account of its own.
    const { refreshCookie } = await signInWith('oidc', 'ada');
    expect((await refreshWith(refreshCookie!.value)).user.uid).not.toBe(local.user.uid);
  });

  it('refuses to unlink the last way in with a 409, until a password or another provider is there', async () => {
    const { refreshCookie } = await signInWith('oidc', 'grace');
    const grace = await refreshWith(refreshCookie!.value);
    const [keycloak] = (await methods(grace.idToken)).identities;
    expect(keycloak).toMatchObject({ provider: 'oidc', canUnlink: false });

    const refused = await unlink(grace.idToken, keycloak!.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ statusCode: 409, error: 'Conflict', message: LAST_WAY_IN('Keycloak') });
    expect(await identityRows()).toHaveLength(1);

    t.clock.advance(1000);
    await link(grace.idToken, 'google', 'grace');
    expect((await methods(grace.idToken)).identities.map((identity) => [identity.name, identity.canUnlink])).toEqual([
      ['Keycloak', true],
      ['Google', true],
    ]);
    expect((await unlink(grace.idToken, keycloak!.id)).statusCode).toBe(204);
    const [googleIdentity] = (await methods(grace.idToken)).identities;
    expect(googleIdentity).toMatchObject({ name: 'Google', canUnlink: false });
    expect((await unlink(grace.idToken, googleIdentity!.id)).json()).toMatchObject({ statusCode: 409, message: LAST_WAY_IN('Google') });

    const password = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/password',
      headers: bearer(grace.idToken),
      payload: { password: 'a long enough password' },
    });
    expect(password.statusCode).toBe(200);
    expect((await methods(grace.idToken)).identities[0]).toMatchObject({ canUnlink: true });
    expect((await unlink(grace.idToken, googleIdentity!.id)).statusCode).toBe(204);
    expect(await methods(grace.idToken)).toMatchObject({ password: true, identities: [] });
  });

  it('lets only one of two unlinks made at once through, when each would leave the other as the way in', async () => {
    const { refreshCookie } = await signInWith('oidc', 'grace');
    const grace = await refreshWith(refreshCookie!.value);
    await link(grace.idToken, 'google', 'grace');
    const { identities } = await methods(grace.idToken);

    const statuses = await Promise.all(identities.map((identity) => unlink(grace.idToken, identity.id)));

    expect(statuses.map((response) => response.statusCode).sort()).toEqual([204, 409]);
    expect(await identityRows()).toHaveLength(1);
  });

  it('does not count a provider no longer configured as a way in', async () => {
    const { refreshCookie } = await signInWith('oidc', 'grace');
    const grace = await refreshWith(refreshCookie!.value);
    t.clock.advance(1000);
    await link(grace.idToken, 'google', 'grace');
    await rebuild({ OIDC_ISSUER: '', OIDC_CLIENT_ID: '', OIDC_CLIENT_SECRET: '', OIDC_NAME: '' });

    const { identities, providers } = await methods(grace.idToken);
    expect(providers).toEqual([{ id: 'google', name: 'Google' }]);
    expect(identities.map((identity) => [identity.provider, identity.name, identity.canUnlink])).toEqual([
      [null, generic.issuer, true],
      ['google', 'Google', false],
    ]);
    expect((await unlink(grace.idToken, identities[1]!.id)).statusCode).toBe(409);
    expect((await unlink(grace.idToken, identities[0]!.id)).statusCode).toBe(204);
  });

  it('refuses a provider account that opens another account here with a 409, and links nothing', async () => {
    const { refreshCookie } = await signInWith('oidc', 'ada');
    const owner = await refreshWith(refreshCookie!.value);
    const other = await registerUser(t.app);

    const page = await link(other.idToken, 'oidc', 'ada');

    expect(page.statusCode).toBe(409);
    expect(postedResult(page.body)).toEqual({
      source: SIGN_IN_RESULT_SOURCE,
      ok: false,
      message: 'This Keycloak account already signs in to another account here; unlink it there first',
    });
    expect(page.body).toContain('Linking failed:');
    expect((await identityRows()).map((row) => row.user_id)).toEqual([owner.user.uid]);
    expect((await methods(other.idToken)).identities).toEqual([]);
  });

  it("answers 404 for another user's identity and leaves it linked", async () => {
    const { refreshCookie } = await signInWith('oidc', 'ada');
    const owner = await refreshWith(refreshCookie!.value);
    const [identity] = (await methods(owner.idToken)).identities;
    const other = await registerUser(t.app);

    for (const id of [identity!.id, 'no-such-identity']) {
      const response = await unlink(other.idToken, id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Linked provider not found' });
    }
    expect(await identityRows()).toHaveLength(1);
  });

  it('links only from a link the profile asked for, for that provider, lately', async () => {
    const local = await registerUser(t.app);
    const linkCookie = (await askToLink(local.idToken, 'oidc')).cookies.find((cookie) => cookie.name === LINK_COOKIE)!.value;

    const notAsked = (await popup('oidc', 'ada', undefined)).page;
    const otherProvider = (await popup('google', 'ada', linkCookie)).page;
    const forged = (await popup('oidc', 'ada', `${linkCookie.slice(0, -2)}xx`)).page;
    t.clock.advance((LINK_INTENT_SECONDS + 1) * 1000);
    const late = (await popup('oidc', 'ada', linkCookie)).page;
    for (const refused of [notAsked, otherProvider, forged, late]) {
      expect(refused.statusCode).toBe(400);
      expect(postedResult(refused.body)).toMatchObject({
        ok: false,
        message: 'Linking took too long or was not started from your profile in this browser; please try again',
      });
    }
    expect(await identityRows()).toEqual([]);
  });

  it('refuses to start linking a provider that is not configured, or one it cannot come back from', async () => {
    const local = await registerUser(t.app);
    expect((await askToLink(local.idToken, 'github')).statusCode).toBe(400);
    await rebuild({ GOOGLE_CLIENT_ID: '', GOOGLE_CLIENT_SECRET: '' });
    const missing = await askToLink(local.idToken, 'google');
    expect(missing.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Sign-in provider not found' });
    expect(missing.cookies.find((cookie) => cookie.name === LINK_COOKIE)).toBeUndefined();

    await rebuild({ PUBLIC_URL: '' });
    expect((await methods(local.idToken)).providers).toEqual([]);
    expect((await askToLink(local.idToken, 'oidc')).statusCode).toBe(503);
  });

  it('links nothing once the session that asked has ended, or the account is disabled', async () => {
    const { refreshCookie } = await signInWith('oidc', 'grace');
    const admin = await refreshWith(refreshCookie!.value);
    const local = await registerUser(t.app);

    const cookieFor = async (idToken: string) =>
      (await askToLink(idToken, 'google')).cookies.find((cookie) => cookie.name === LINK_COOKIE)!.value;
    const signedOutCookie = await cookieFor(local.idToken);
    await t.app.inject({ method: 'POST', url: '/auth/logout', cookies: { organiser_refresh: local.refreshToken } });
    const signedOut = (await popup('google', 'ada', signedOutCookie)).page;
    expect(signedOut.statusCode).toBe(401);
    expect(postedResult(signedOut.body)).toMatchObject({ message: 'Your session has ended; please sign in again' });

    const again = await registerUser(t.app);
    const disabledCookie = await cookieFor(again.idToken);
    const disable = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${again.user.uid}`,
      headers: bearer(admin.idToken),
      payload: { disabled: true },
    });
    expect(disable.statusCode).toBe(200);
    const disabled = (await popup('google', 'ada', disabledCookie)).page;
    expect(disabled.statusCode).toBe(401);
    expect(postedResult(disabled.body)).toMatchObject({ message: 'This account has been disabled; ask an administrator' });
    expect((await identityRows()).map((row) => row.user_id)).toEqual([admin.user.uid]);
    expect((await askToLink(again.idToken, 'google')).statusCode).toBe(401);
  });

  it('asks a user with a temporary password to replace it first, as other account calls do', async () => {
    const { refreshCookie } = await signInWith('oidc', 'grace');
    const admin = await refreshWith(refreshCookie!.value);
    const local = await registerUser(t.app);
    const temporaryPassword = 'a temporary password';
    const set = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${local.user.uid}`,
      headers: bearer(admin.idToken),
      payload: { temporaryPassword },
    });
    expect(set.statusCode).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: local.user.email, password: temporaryPassword },
    });
    const { idToken } = AuthReply.parse(login.json());

    for (const response of [
      await t.app.inject({ url: '/api/users/me/identities', headers: bearer(idToken) }),
      await askToLink(idToken, 'google'),
      await unlink(idToken, 'any'),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toMatch(/^Choose a new password first/);
    }
  });
});
