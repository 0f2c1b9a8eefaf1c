import { beforeEach, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { ErrorReply } from '../../../contract/errors.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';
import { REFRESH_REUSE_GRACE_MS } from './auth.service.ts';
import { PASSWORD_COST } from './passwords.ts';
import { MAX_FAILED_SIGN_INS_PER_MINUTE } from './login-limiter.ts';

const REFRESH = 'organiser_refresh';

describe.each(testDialects)('auth on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let t: TestApp;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    t = await buildTestApp(database, { env: { ADMIN_EMAILS: 'boss@example.org' } });
    return async () => {
      await t.close();
      await database.drop();
    };
  });

  const userCount = async () => (await t.storage.db.selectFrom('users').select('id').execute()).length;
  const providers = async () => (await t.app.inject({ url: '/auth/providers' })).json();
  const refresh = (token: string) =>
    t.app.inject({ method: 'POST', url: '/auth/refresh', cookies: { [REFRESH]: token } });
  const login = (payload: unknown, remoteAddress = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: payload as object, remoteAddress });

  it('offers set-up on a new installation, and the first account becomes admin', async () => {
    expect(await providers()).toEqual({ local: true, signup: true, setup: true, google: false, oidc: null, passwordReset: false });
    const first = await registerUser(t.app, { email: 'First@Example.org' });
    expect(first.user).toMatchObject({ email: 'first@example.org', admin: true });
    expect(await providers()).toMatchObject({ signup: false, setup: false });
  });

  it('closes sign-up after the first account unless ALLOW_SIGNUP is set', async () => {
    await registerUser(t.app);
    const second = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: 'second@example.org', password: 'a long enough password', displayName: 'Second' },
    });
    expect(second.statusCode).toBe(403);
    expect(ErrorReply.parse(second.json()).message).toBe('Sign-up is closed on this installation');
    expect(await userCount()).toBe(1);
  });

  it('with ALLOW_SIGNUP, later accounts are not admins unless listed in ADMIN_EMAILS', async () => {
    await t.close();
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true', ADMIN_EMAILS: 'boss@example.org' } });
    await registerUser(t.app);
    const plain = await registerUser(t.app, { email: 'plain@example.org' });
    const boss = await registerUser(t.app, { email: 'boss@example.org' });
    expect(plain.user.admin).toBe(false);
    expect(boss.user.admin).toBe(true);
    const duplicate = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: 'PLAIN@example.org', password: 'a long enough password', displayName: 'Again' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(await userCount()).toBe(3);
  });

  it('stores the password as a salted scrypt hash, never as given', async () => {
    // The server's own cost, not the tests' cheaper one.
    await t.close();
    t = await buildTestApp(database, { passwordCost: PASSWORD_COST });
    const { password } = await registerUser(t.app, { password: 'my secret passphrase' });
    const row = await t.storage.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$3\$/);
    expect(row.password_hash).not.toContain(password);
  });

  it.each([
    ['malformed JSON', '{"email": "a@example.org", ', /not valid JSON/],
    ['an unknown field', { email: 'a@example.org', password: 'a long enough password', displayName: 'A', role: 'admin' }, /Unrecognized key: "role"/],
    ['a bad e-mail', { email: 'not-an-email', password: 'a long enough password', displayName: 'A' }, /^email: must be a valid e-mail address$/],
    ['a short password', { email: 'a@example.org', password: 'short', displayName: 'A' }, /^password: must be at least 10 characters$/],
    ['a wrong type', { email: 'a@example.org', password: 1234567890123, displayName: 'A' }, /^password: .*expected string/],
    ['an empty name', { email: 'a@example.org', password: 'a long enough password', displayName: '   ' }, /^displayName: is required$/],
  ])('answers %s with a 400 that says what is wrong and changes nothing', async (_, payload, message) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    expect(response.statusCode).toBe(400);
    const body = ErrorReply.parse(response.json());
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(body.message).toMatch(message);
    expect(await userCount()).toBe(0);
  });

  it('signs in with the right password, case-insensitively on the e-mail', async () => {
    await registerUser(t.app, { email: 'ann@example.org', password: 'correct horse battery' });
    const response = await login({ email: ' ANN@example.org ', password: 'correct horse battery' });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe('ann@example.org');
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    await registerUser(t.app, { email: 'ann@example.org', password: 'correct horse battery' });
    const wrongPassword = await login({ email: 'ann@example.org', password: 'wrong horse battery' });
    const unknownEmail = await login({ email: 'nobody@example.org', password: 'correct horse battery' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual(unknownEmail.json());
    expect(wrongPassword.cookies).toEqual([]);
  });

  it(`refuses sign-in to an account with a 429 after ${MAX_FAILED_SIGN_INS_PER_MINUTE} failures a minute from one address, and only to it`, async () => {
    await registerUser(t.app, { email: 'ann@example.org', password: 'correct horse battery' });
    await t.close();
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    await registerUser(t.app, { email: 'bob@example.org', password: 'bob horse battery' });
    for (let i = 0; i < MAX_FAILED_SIGN_INS_PER_MINUTE; i++) {
      expect((await login({ email: 'ann@example.org', password: `guess number ${i}` }, '10.0.0.9')).statusCode).toBe(401);
    }
    const blocked = await login({ email: 'ann@example.org', password: 'correct horse battery' }, '10.0.0.9');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await login({ email: 'ann@example.org', password: 'correct horse battery' }, '10.0.0.10');
    expect(elsewhere.statusCode).toBe(200);
    // Someone else of the same household, behind the same address, is not held back.
    const housemate = await login({ email: 'bob@example.org', password: 'bob horse battery' }, '10.0.0.9');
    expect(housemate.statusCode).toBe(200);
  });

  it('sets the refresh token as an HttpOnly SameSite=Strict cookie on /auth, stored only hashed', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: 'ann@example.org', password: 'correct horse battery', displayName: 'Ann' },
    });
    const cookie = response.cookies.find((c) => c.name === REFRESH);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/auth' });
    const rows = await t.storage.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token_hash).not.toContain(cookie?.value);
  });

  it('rotates the refresh token on each use', async () => {
    const { refreshToken } = await registerUser(t.app);
    const first = await refresh(refreshToken);
    expect(first.statusCode).toBe(200);
    const rotated = first.cookies.find((c) => c.name === REFRESH)?.value;
    expect(rotated).toBeTruthy();
    expect(rotated).not.toBe(refreshToken);
    expect((await refresh(rotated!)).statusCode).toBe(200);
  });

  it('revokes the whole family when a rotated token is used again after the grace period', async () => {
    const { refreshToken } = await registerUser(t.app);
    const rotated = (await refresh(refreshToken)).cookies.find((c) => c.name === REFRESH)!.value;
    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000);
    const reuse = await refresh(refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.cookies.find((c) => c.name === REFRESH)?.value).toBe('');
    expect((await refresh(rotated)).statusCode).toBe(401);
  });

  it('serves a rotated token again within the grace period, for two tabs refreshing at once', async () => {
    const { refreshToken } = await registerUser(t.app);
    const [a, b] = await Promise.all([refresh(refreshToken), refresh(refreshToken)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    t.clock.advance(1000);
    const fromB = b.cookies.find((c) => c.name === REFRESH)!.value;
    expect((await refresh(fromB)).statusCode).toBe(200);
  });

  it('revokes the session on logout', async () => {
    const { refreshToken } = await registerUser(t.app);
    const out = await t.app.inject({ method: 'POST', url: '/auth/logout', cookies: { [REFRESH]: refreshToken } });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === REFRESH)?.value).toBe('');
    expect((await refresh(refreshToken)).statusCode).toBe(401);
  });

  it('ends a session after SESSION_DAYS', async () => {
    const { refreshToken } = await registerUser(t.app);
    t.clock.advance(31 * 24 * 60 * 60 * 1000);
    expect((await refresh(refreshToken)).statusCode).toBe(401);
  });

  describe('bearer tokens', () => {
    const me = (token: string) => t.app.inject({ url: '/api/users/me', headers: bearer(token) });

    it('accepts a fresh token and refuses one after 15 minutes', async () => {
      const { idToken } = await registerUser(t.app);
      expect((await me(idToken)).statusCode).toBe(200);
      t.clock.advance(15 * 60 * 1000 + 1000);
      const expired = await me(idToken);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().message).toBe('Token expired');
    });

    it('refuses a missing token, a forged signature and alg "none"', async () => {
      const { idToken } = await registerUser(t.app);
      const [header, payload] = idToken.split('.') as [string, string];
      const forgedPayload = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), admin: true, sub: 'someone-else' }),
      ).toString('base64url');
      const forged = `${header}.${forgedPayload}.${createHmac('sha256', 'guessed secret').update(`${header}.${forgedPayload}`).digest('base64url')}`;
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      expect((await t.app.inject({ url: '/api/users/me' })).statusCode).toBe(401);
      for (const token of [forged, none, `${header}.${payload}`, 'garbage']) {
        const response = await me(token);
        expect(response.statusCode, token).toBe(401);
        expect(ErrorReply.parse(response.json()).message).toBe('Invalid token');
      }
    });
  });
});
