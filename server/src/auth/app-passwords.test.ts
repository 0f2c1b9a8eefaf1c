import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppPasswords, NewAppPassword } from '../../../contract/app-passwords.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { MAX_FAILED_SIGN_INS_PER_MINUTE } from './login-limiter.ts';

const basic = (email: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` });

describe.each(testDialects)('app passwords on %s', (dialect) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let other: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    owner = await registerUser(t.app);
    other = await registerUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = async (idToken: string, name: string) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', payload: { name }, headers: bearer(idToken) });
    expect(response.statusCode, response.body).toBe(200);
    return NewAppPassword.parse(response.json());
  };
  const list = async (idToken: string) => {
    const response = await t.app.inject({ url: '/api/users/me/app-passwords', headers: bearer(idToken) });
    expect(response.statusCode, response.body).toBe(200);
    return AppPasswords.parse(response.json());
  };
  const revoke = (idToken: string, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/users/me/app-passwords/${id}`, headers: bearer(idToken) });
  const opds = (headers: Record<string, string>, ip = '10.0.0.1') => t.app.inject({ url: '/opds', headers, remoteAddress: ip });

  it('is shown once when made, then listed by name with its last use and never again in full', async () => {
    const made = await create(owner.idToken, 'KOReader on the Kobo');
    expect(made.name).toBe('KOReader on the Kobo');
    expect(made.password).toMatch(/^([a-z2-7]{4}-){6}[a-z2-7]{2}$/);
    const listed = await list(owner.idToken);
    expect(listed).toEqual([{ id: made.id, name: 'KOReader on the Kobo', created_at: new Date(t.clock.now()).toISOString(), last_used_at: null }]);
    const raw = (await t.app.inject({ url: '/api/users/me/app-passwords', headers: bearer(owner.idToken) })).body;
    expect(raw).not.toContain(made.password);
    expect(raw).not.toContain(made.password.replaceAll('-', ''));
    expect(await list(other.idToken)).toEqual([]);
  });

  it('signs an e-reader in with HTTP Basic, typed with or without its hyphens, and records the use', async () => {
    const made = await create(owner.idToken, 'Moon+ Reader');
    const response = await opds(basic(owner.user.email, made.password));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/atom+xml;profile=opds-catalog;kind=navigation');
    const typed = made.password.replaceAll('-', '').toUpperCase();
    expect((await opds(basic(owner.user.email.toUpperCase(), typed))).statusCode).toBe(200);
    const used = (await list(owner.idToken)).find((one) => one.id === made.id);
    expect(used?.last_used_at).toBe(new Date(t.clock.now()).toISOString());
  });

  it('accepts a local account’s own password, and no longer once it is changed', async () => {
    const user = await registerUser(t.app);
    expect((await opds(basic(user.user.email, user.password))).statusCode).toBe(200);
    expect((await opds(basic(user.user.email, user.password))).statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/password',
      payload: { current: user.password, password: 'another long password' },
      headers: bearer(user.idToken),
    });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
    expect((await opds(basic(user.user.email, user.password))).statusCode).toBe(401);
    expect((await opds(basic(user.user.email, 'another long password'))).statusCode).toBe(200);
  });

  it('asks for Basic credentials without any, and refuses wrong ones with the same challenge', async () => {
    for (const response of [await opds({}), await opds(basic(owner.user.email, 'abcd-efgh-ijkl-mnop-qrst-uvwx-yz')), await opds(basic('nobody@example.org', 'whatever'))]) {
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Basic realm="Organiser"/);
      expect(ErrorReply.parse(response.json()).statusCode).toBe(401);
    }
    expect((await opds({ authorization: 'Basic not base64 at all!' })).statusCode).toBe(401);
  });

  it('refuses a user name or password holding a control character on every Basic route, before any query', async () => {
    const book = '00000000-0000-4000-8000-000000000000';
    const credentials = [
      { authorization: 'Basic ADoA' },
      basic(`${owner.user.email}\u0000`, 'whatever'),
      basic(`\u0001${owner.user.email}`, 'whatever'),
      basic(owner.user.email, 'pass\u0000word'),
    ];
    for (const headers of credentials) {
      for (const url of ['/opds', `/api/books/${book}/cover`, `/api/books/${book}/file/epub`]) {
        const response = await t.app.inject({ url, headers, remoteAddress: '10.0.0.50' });
        expect(response.statusCode, `${url} ${response.body}`).toBe(401);
        expect(response.headers['www-authenticate']).toMatch(/^Basic realm="Organiser"/);
        expect(ErrorReply.parse(response.json()).message).toBe('Wrong e-mail or password');
      }
    }
  });

  it('is refused from the request after it is revoked; revoked twice or by another user it is a 404', async () => {
    const made = await create(owner.idToken, 'Thorium');
    expect((await opds(basic(owner.user.email, made.password))).statusCode).toBe(200);
    const byOther = await revoke(other.idToken, made.id);
    expect(byOther.statusCode).toBe(404);
    expect(ErrorReply.parse(byOther.json()).message).toBe('App password not found');
    expect((await opds(basic(owner.user.email, made.password))).statusCode).toBe(200);
    expect((await revoke(owner.idToken, made.id)).statusCode).toBe(204);
    expect((await opds(basic(owner.user.email, made.password))).statusCode).toBe(401);
    expect((await revoke(owner.idToken, made.id)).statusCode).toBe(404);
    expect((await list(owner.idToken)).map((one) => one.id)).not.toContain(made.id);
  });

  it('opens the catalogue only: an app password is no bearer token for the rest of the API', async () => {
    const made = await create(owner.idToken, 'Foliate');
    const response = await t.app.inject({ url: '/api/users/me/app-passwords', headers: basic(owner.user.email, made.password) });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a name that is empty or too long, and anyone not signed in, changing nothing', async () => {
    const before = await list(owner.idToken);
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', payload: { name }, headers: bearer(owner.idToken) });
      expect(response.statusCode).toBe(400);
      expect(ErrorReply.parse(response.json()).message).toMatch(/^Name /);
    }
    const extra = await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', payload: { name: 'x', password: 'mine' }, headers: bearer(owner.idToken) });
    expect(extra.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', payload: { name: 'x' } })).statusCode).toBe(401);
    expect(await list(owner.idToken)).toEqual(before);
  });

  it('is refused once its user is deleted, with the account password too', async () => {
    const user = await registerUser(t.app);
    const made = await create(user.idToken, 'Kobo');
    expect((await opds(basic(user.user.email, made.password))).statusCode).toBe(200);
    expect((await opds(basic(user.user.email, user.password))).statusCode).toBe(200);
    await t.storage.db.deleteFrom('users').where('id', '=', user.user.uid).execute();
    expect((await opds(basic(user.user.email, made.password))).statusCode).toBe(401);
    expect((await opds(basic(user.user.email, user.password))).statusCode).toBe(401);
    const left = await t.storage.db.selectFrom('app_passwords').select('id').where('user_id', '=', user.user.uid).execute();
    expect(left).toEqual([]);
  });

  it('rate-limits wrong credentials as the sign-in form does, even before a right one', async () => {
    const user = await registerUser(t.app);
    const made = await create(user.idToken, 'Kobo');
    const address = '10.0.0.99';
    for (let i = 0; i < MAX_FAILED_SIGN_INS_PER_MINUTE; i++) {
      expect((await opds(basic(user.user.email, `wrong guess ${i}`), address)).statusCode).toBe(401);
    }
    const limited = await opds(basic(user.user.email, made.password), address);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back by this one's guesses.
    expect((await opds(basic(user.user.email, made.password), '10.0.0.100')).statusCode).toBe(200);
  });
});
