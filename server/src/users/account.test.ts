import { beforeAll, describe, expect, it } from 'vitest';
import { EndedSessions } from '../../../contract/sessions.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { MAX_FAILED_SIGN_INS_PER_MINUTE } from '../auth/login-limiter.ts';
import { makeOtherCredentials } from '../test/other-credentials.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const NEW_PASSWORD = 'a brand new passphrase';

describe.each(testDialects)('changing one’s password on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    return t.close;
  });

  const login = (email: string, password: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/auth/login', remoteAddress, payload: { email, password } });
  const signIn = async (email: string, password: string) => {
    const response = await login(email, password);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().idToken as string;
  };
  const changePassword = (idToken: string, payload: object, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'PUT', url: '/api/users/me/password', headers: bearer(idToken), remoteAddress, payload });
  const me = (idToken: string) => t.app.inject({ url: '/api/users/me', headers: bearer(idToken) });
  const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/auth/refresh', cookies: { organiser_refresh: refreshToken } });
  const refusal = (response: { statusCode: number; json(): unknown }) => ({ status: response.statusCode, message: ErrorReply.parse(response.json()).message });

  it('sets the new password, signs every other session out at once, and keeps the one that asked', async () => {
    const ann = await registerUser(t.app);
    const laptop = await signIn(ann.user.email, ann.password);
    const phone = await signIn(ann.user.email, ann.password);

    const changed = await changePassword(laptop, { current: ann.password, password: NEW_PASSWORD });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(EndedSessions.parse(changed.json())).toEqual({ ended: 2 });

    expect((await me(laptop)).statusCode).toBe(200);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(ann.idToken)).statusCode).toBe(401);
    expect((await refresh(ann.refreshToken)).statusCode).toBe(401);
    expect((await login(ann.user.email, ann.password)).statusCode).toBe(401);
    expect((await login(ann.user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('keeps API tokens, app passwords and the calendar address unless asked to end them too', async () => {
    const ann = await registerUser(t.app);
    const credentials = await makeOtherCredentials(t.app, ann);
    const everyOne = { apiToken: true, appPassword: true, calendar: true };
    expect(await credentials.working()).toEqual(everyOne);

    expect((await changePassword(ann.idToken, { current: ann.password, password: NEW_PASSWORD })).statusCode).toBe(200);
    expect(await credentials.working()).toEqual(everyOne);

    const ended = await changePassword(ann.idToken, { current: NEW_PASSWORD, password: 'a third long passphrase', endOtherCredentials: true });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await credentials.working()).toEqual({ apiToken: false, appPassword: false, calendar: false });
    expect((await me(ann.idToken)).statusCode).toBe(200);
  });

  it('refuses a wrong or missing current password and a new one against the rules, and changes nothing', async () => {
    const bob = await registerUser(t.app);
    const other = await signIn(bob.user.email, bob.password);
    const refused = [
      await changePassword(bob.idToken, { current: 'not the password', password: NEW_PASSWORD }),
      await changePassword(bob.idToken, { password: NEW_PASSWORD }),
      await changePassword(bob.idToken, { current: bob.password, password: 'short' }),
      await changePassword(bob.idToken, { current: bob.password, password: 'password123' }),
      await changePassword(bob.idToken, { current: bob.password, password: NEW_PASSWORD, email: 'x@example.org' }),
    ].map(refusal);
    expect(refused).toEqual([
      { status: 403, message: 'current: the current password is wrong' },
      { status: 400, message: 'current: is required' },
      { status: 400, message: expect.stringMatching(/^password: must be at least 10 characters/) },
      { status: 400, message: 'password: is one of the most common passwords; choose another' },
      { status: 400, message: expect.stringMatching(/email/) },
    ]);
    expect((await me(other)).statusCode).toBe(200);
    expect((await login(bob.user.email, bob.password)).statusCode).toBe(200);
  });

  it('counts wrong current passwords as failed sign-ins: after ten in a minute even the right one waits', async () => {
    const cy = await registerUser(t.app);
    const address = '198.51.100.7';
    for (let i = 0; i < MAX_FAILED_SIGN_INS_PER_MINUTE; i++) {
      expect((await changePassword(cy.idToken, { current: `guess number ${i}`, password: NEW_PASSWORD }, address)).statusCode).toBe(403);
    }
    const held = await changePassword(cy.idToken, { current: cy.password, password: NEW_PASSWORD }, address);
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    // Sign-in shares the count: the same guesser is held back there too.
    expect((await login(cy.user.email, cy.password, address)).statusCode).toBe(429);
    expect((await login(cy.user.email, cy.password)).statusCode).toBe(200);
  });

  it('lets an account without a password (a provider’s) set its first without a current one', async () => {
    const dee = await registerUser(t.app);
    await t.storage.db.updateTable('users').set({ password_hash: null }).where('id', '=', dee.user.uid).execute();
    const set = await changePassword(dee.idToken, { password: NEW_PASSWORD });
    expect(set.statusCode, set.body).toBe(200);
    expect((await login(dee.user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({ method: 'PUT', url: '/api/users/me/password', payload: { current: 'x', password: NEW_PASSWORD } });
    expect(response.statusCode).toBe(401);
  });
});
