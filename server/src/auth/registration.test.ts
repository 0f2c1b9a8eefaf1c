import { beforeEach, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';
import { REGISTRATIONS_PER_ADDRESS } from './login-limiter.ts';
import { hashPassword } from './passwords.ts';

const register = (t: TestApp, payload: object, remoteAddress = '10.1.0.1') =>
  t.app.inject({ method: 'POST', url: '/auth/register', payload, remoteAddress });

describe.each(testDialects)('registration on %s', (dialect) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let t: TestApp;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    return async () => {
      await t.close();
      await database.drop();
    };
  });

  const userCount = async () => (await t.storage.db.selectFrom('users').select('id').execute()).length;
  const account = (email: string, password = 'a long enough password') => ({ email, password, displayName: 'Someone' });

  it('refuses closed sign-up before spending a hash: 20 refusals take less time than one hash', async () => {
    await t.close();
    t = await buildTestApp(database);
    await registerUser(t.app);
    const oneHash = performance.now();
    await hashPassword('the time one hash takes');
    const hashMs = performance.now() - oneHash;
    const started = performance.now();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => register(t, account(`closed${i}@example.org`), `10.2.0.${i}`)),
    );
    expect(replies.map((reply) => reply.statusCode)).toEqual(Array(20).fill(403));
    expect(performance.now() - started).toBeLessThan(hashMs);
  });

  it.each([
    ['one of the most common passwords', 'qwertyuiop', 'password: is one of the most common passwords; choose another'],
    ['a common password in other letter case', 'Password123', 'password: is one of the most common passwords; choose another'],
    ['a password of spaces only', ' '.repeat(12), 'password: must not be only spaces'],
    ['a password with a control character', 'long enough\u0000password', 'password: must not contain control characters'],
    ['a password with a line break', 'long enough\npassword', 'password: must not contain control characters'],
  ])('refuses %s with a 400 that says so, and opens no account', async (_, password, message) => {
    const response = await register(t, account('ann@example.org', password));
    expect(response.statusCode).toBe(400);
    expect(ErrorReply.parse(response.json()).message).toBe(message);
    expect(await userCount()).toBe(0);
  });

  it(`throttles registrations from one address after ${REGISTRATIONS_PER_ADDRESS.attempts} an hour, whatever their outcome`, async () => {
    for (let i = 0; i < REGISTRATIONS_PER_ADDRESS.attempts; i++) {
      expect((await register(t, account(`probe${i}@example.org`, 'qwertyuiop'))).statusCode).toBe(400);
    }
    const refused = await register(t, account('ann@example.org'));
    expect(refused.statusCode).toBe(429);
    expect(ErrorReply.parse(refused.json()).message).toMatch(/^Too many sign-ups from this address; try again in \d+ seconds$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await userCount()).toBe(0);
    expect((await register(t, account('ann@example.org'), '10.1.0.2')).statusCode).toBe(200);
  });

  it('so "already exists" can be asked only as often as any registration', async () => {
    await registerUser(t.app, { email: 'ann@example.org' });
    const answers = [(await register(t, account('ann@example.org'), '10.3.0.1')).statusCode];
    expect(answers).toEqual([409]);
    for (let i = 1; i <= REGISTRATIONS_PER_ADDRESS.attempts; i++) {
      answers.push((await register(t, account('ann@example.org', 'qwertyuiop'), '10.3.0.1')).statusCode);
    }
    expect(answers.at(-1)).toBe(429);
  });
});
