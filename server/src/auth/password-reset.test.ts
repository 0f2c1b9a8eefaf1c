import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthReply, Providers } from '../../../contract/auth.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { makeOtherCredentials } from '../test/other-credentials.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { quotedPrintable, startTestSmtp, type TestSmtp } from '../test/test-smtp.ts';
import { PASSWORD_RESETS } from './login-limiter.ts';

const PASSWORD = 'a long enough password';
const NEW_PASSWORD = 'a brand new passphrase';
const PUBLIC_URL = 'https://organiser.example.org';
const LINK = /https:\/\/organiser\.example\.org\/reset-password\?token=([A-Za-z0-9_-]{43})/;

describe.each(testDialects)('forgotten passwords on %s', (dialect) => {
  let smtp: TestSmtp;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    return () => smtp.close();
  });

  beforeEach(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', SMTP_URL: smtp.url, PUBLIC_URL } });
    return () => t.close();
  });

  const ask = (email: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/auth/password-reset', remoteAddress, payload: { email } });
  const confirm = (token: string, password = NEW_PASSWORD) =>
    t.app.inject({ method: 'POST', url: '/auth/password-reset/confirm', payload: { token, password } });
  const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  const me = (token: string) => t.app.inject({ url: '/api/users/me', headers: bearer(token) });

  /** Asks for a link and reads it from the mail that arrives. */
  async function resetLink(email: string): Promise<string> {
    const before = smtp.received.length;
    expect((await ask(email)).statusCode).toBe(202);
    await smtp.waitFor(before + 1);
    const mail = smtp.received.slice(before).find((received) => received.to.includes(email))!;
    expect(mail.subject).toBe('Reset your Organiser password');
    return LINK.exec(quotedPrintable(mail.raw))![1]!;
  }

  it('is offered on the login page when mail and the public address are set', async () => {
    expect(Providers.parse((await t.app.inject({ url: '/auth/providers' })).json()).passwordReset).toBe(true);
  });

  it('mails a single-use link that sets the new password and ends every session', async () => {
    const ann = await registerUser(t.app, { password: PASSWORD });
    const token = await resetLink(ann.user.email);

    const done = await confirm(token);
    expect(done.statusCode, done.body).toBe(204);
    expect((await me(ann.idToken)).statusCode).toBe(401);
    expect((await login(ann.user.email, PASSWORD)).statusCode).toBe(401);
    expect((await login(ann.user.email, NEW_PASSWORD)).statusCode).toBe(200);

    const again = await confirm(token, 'yet another passphrase');
    expect(again.statusCode).toBe(400);
    expect(ErrorReply.parse(again.json()).message).toBe('token: this link has been used or has expired; ask for a new one');
    expect((await login(ann.user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('keeps API tokens, app passwords and the calendar address unless asked to end them too', async () => {
    const ann = await registerUser(t.app, { password: PASSWORD });
    const credentials = await makeOtherCredentials(t.app, ann);
    const everyOne = { apiToken: true, appPassword: true, calendar: true };
    expect(await credentials.working()).toEqual(everyOne);

    expect((await confirm(await resetLink(ann.user.email))).statusCode).toBe(204);
    expect(await credentials.working()).toEqual(everyOne);

    const token = await resetLink(ann.user.email);
    const ended = await t.app.inject({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      payload: { token, password: 'a third long passphrase', endOtherCredentials: true },
    });
    expect(ended.statusCode, ended.body).toBe(204);
    expect(await credentials.working()).toEqual({ apiToken: false, appPassword: false, calendar: false });
  });

  it('gives the same answer for an address without an account, and sends nothing', async () => {
    const ann = await registerUser(t.app);
    const known = await ask(ann.user.email);
    const unknown = await ask('nobody@example.org');
    expect([unknown.statusCode, unknown.json()]).toEqual([known.statusCode, known.json()]);
    expect(known.json()).toEqual({ message: 'If an account has this address, a link to reset its password is on its way' });
    await smtp.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter((mail) => mail.to.includes('nobody@example.org'))).toEqual([]);
  });

  it('expires after an hour, and a link used up the others of the account', async () => {
    const bob = await registerUser(t.app, { password: PASSWORD });
    const late = await resetLink(bob.user.email);
    t.clock.advance(60 * 60 * 1000 + 1);
    expect((await confirm(late)).statusCode).toBe(400);

    const first = await resetLink(bob.user.email);
    const second = await resetLink(bob.user.email);
    expect((await confirm(second)).statusCode).toBe(204);
    expect((await confirm(first, 'yet another passphrase')).statusCode).toBe(400);
    expect((await login(bob.user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a weak password without using the link, and a forged token', async () => {
    const cy = await registerUser(t.app, { password: PASSWORD });
    const token = await resetLink(cy.user.email);
    expect((await confirm(token, 'short')).statusCode).toBe(400);
    expect((await confirm(token, 'password123')).statusCode).toBe(400);
    expect((await confirm('A'.repeat(43))).statusCode).toBe(400);
    expect((await confirm(token)).statusCode).toBe(204);
  });

  it('is rate-limited per e-mail and per address, known or not', async () => {
    const { perEmail, perAddress } = PASSWORD_RESETS;
    for (let i = 0; i < perEmail.requests; i++) expect((await ask('someone@example.org', '198.51.100.1')).statusCode).toBe(202);
    const held = await ask('someone@example.org', '198.51.100.2');
    expect(held.statusCode).toBe(429);
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);

    for (let i = 0; i < perAddress.requests; i++) await ask(`person${i}@example.org`, '198.51.100.3');
    expect((await ask('last@example.org', '198.51.100.3')).statusCode).toBe(429);
    expect((await ask('last@example.org', '198.51.100.4')).statusCode).toBe(202);
  });

  it('sends nothing to a disabled account', async () => {
    const admin = await registerUser(t.app);
    const dee = await registerUser(t.app);
    const disabled = await t.app.inject({ method: 'PUT', url: `/api/admin/users/${dee.user.uid}`, headers: bearer(admin.idToken), payload: { disabled: true } });
    expect(disabled.statusCode).toBe(200);
    expect((await ask(dee.user.email)).statusCode).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter((mail) => mail.to.includes(dee.user.email))).toEqual([]);
  });
});

describe('forgotten passwords without mail', () => {
  it('are not offered, and their calls are not there', async () => {
    const t = await testAppOn('sqlite', { env: { PUBLIC_URL } });
    try {
      expect(Providers.parse((await t.app.inject({ url: '/auth/providers' })).json()).passwordReset).toBe(false);
      const asked = await t.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email: 'ann@example.org' } });
      expect(asked.statusCode).toBe(404);
      expect(AuthReply.safeParse(asked.json()).success).toBe(false);
    } finally {
      await t.close();
    }
  });
});
