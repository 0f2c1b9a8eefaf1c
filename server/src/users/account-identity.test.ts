import { beforeEach, describe, expect, it } from 'vitest';
import { AdminUsers } from '../../../contract/admin.ts';
import { AuthReply } from '../../../contract/auth.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { UserRecord } from '../../../contract/users.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

type Response = { statusCode: number; body: string; json(): unknown };
const refusal = (response: Response) => ({ status: response.statusCode, message: ErrorReply.parse(response.json()).message });

describe.each(testDialects)('changing one’s name and e-mail on %s', (dialect) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', ADMIN_EMAILS: 'boss@example.org' } });
    return t.close;
  });

  const update = (token: string, payload: object) => t.app.inject({ method: 'PUT', url: '/api/users/me', headers: bearer(token), payload });
  const me = async (token: string) => UserRecord.parse((await t.app.inject({ url: '/api/users/me', headers: bearer(token) })).json());
  const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/auth/refresh', cookies: { organiser_refresh: refreshToken } });

  it('changes the name and the e-mail (trimmed, lower-cased); sign-in takes the new e-mail and the next token carries both', async () => {
    await registerUser(t.app);
    const ann = await registerUser(t.app, { displayName: 'Ann' });
    const changed = await update(ann.idToken, { displayName: '  Ann Smith ', email: ' Ann.Smith@Example.ORG ' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(UserRecord.parse(changed.json())).toMatchObject({ uid: ann.user.uid, displayName: 'Ann Smith', email: 'ann.smith@example.org' });
    expect(await me(ann.idToken)).toMatchObject({ displayName: 'Ann Smith', email: 'ann.smith@example.org' });

    const renewed = AuthReply.parse((await refresh(ann.refreshToken)).json());
    expect(renewed.user).toMatchObject({ displayName: 'Ann Smith', email: 'ann.smith@example.org', admin: false });
    expect((await login(ann.user.email, ann.password)).statusCode).toBe(401);
    expect((await login('ann.smith@example.org', ann.password)).statusCode).toBe(200);
    // The old address is free for someone else.
    await registerUser(t.app, { email: ann.user.email });
  });

  it('changes one field and leaves the others as they were', async () => {
    const bob = await registerUser(t.app, { displayName: 'Bob' });
    await update(bob.idToken, { timezone: 'Europe/Paris' });
    expect(UserRecord.parse((await update(bob.idToken, { displayName: 'Robert' })).json())).toMatchObject({
      displayName: 'Robert',
      email: bob.user.email,
      timezone: 'Europe/Paris',
    });
    expect(UserRecord.parse((await update(bob.idToken, { email: 'robert@example.org' })).json())).toMatchObject({
      displayName: 'Robert',
      email: 'robert@example.org',
      timezone: 'Europe/Paris',
    });
    expect((await update(bob.idToken, { email: 'robert@example.org' })).statusCode).toBe(200);
  });

  it('refuses an e-mail in use, one not an e-mail, an empty or long name, or nothing, and changes nothing', async () => {
    const cy = await registerUser(t.app, { displayName: 'Cy' });
    const dee = await registerUser(t.app);
    const refused = [
      await update(cy.idToken, { email: dee.user.email.toUpperCase() }),
      await update(cy.idToken, { displayName: 'Cyril', email: dee.user.email }),
      await update(cy.idToken, { email: 'not an address' }),
      await update(cy.idToken, { displayName: '   ' }),
      await update(cy.idToken, { displayName: 'x'.repeat(101) }),
      await update(cy.idToken, {}),
      await update(cy.idToken, { photo: 'https://example.org/me.png' }),
    ].map(refusal);
    expect(refused).toEqual([
      { status: 409, message: 'An account with this e-mail already exists' },
      { status: 409, message: 'An account with this e-mail already exists' },
      { status: 400, message: 'email: must be a valid e-mail address' },
      { status: 400, message: 'displayName: is required' },
      { status: 400, message: 'displayName: must be at most 100 characters' },
      { status: 400, message: expect.stringMatching(/give at least one of timezone, displayName, email/) },
      { status: 400, message: expect.stringMatching(/photo/) },
    ]);
    expect(await me(cy.idToken)).toMatchObject({ displayName: 'Cy', email: cy.user.email });
    expect(await me(dee.idToken)).toMatchObject({ email: dee.user.email });
  });

  it('gives a free e-mail asked for by several accounts at once to one of them, the others a 409, never a 500', async () => {
    await registerUser(t.app);
    const racers = await Promise.all(Array.from({ length: 6 }, () => registerUser(t.app)));
    for (const round of [1, 2, 3]) {
      const wanted = `wanted-${round}@example.org`;
      const replies = await Promise.all(racers.map((racer) => update(racer.idToken, { email: wanted })));
      const statuses = replies.map((reply) => reply.statusCode).sort();
      expect(statuses, replies.map((reply) => reply.body).join('\n')).toEqual([200, 409, 409, 409, 409, 409]);
      for (const reply of replies.filter((one) => one.statusCode === 409)) {
        expect(reply.json()).toMatchObject({ message: 'An account with this e-mail already exists' });
      }
      const holders = (await Promise.all(racers.map((racer) => me(racer.idToken)))).filter((user) => user.email === wanted);
      expect(holders).toHaveLength(1);
    }
  });

  it('keeps an address of ADMIN_EMAILS from an account that does not administer, and an administrator through it stays one after moving', async () => {
    const first = await registerUser(t.app);
    const eve = await registerUser(t.app);
    expect(refusal(await update(eve.idToken, { email: 'Boss@example.org' }))).toEqual({
      status: 403,
      message: 'email: boss@example.org is kept for an administrator of this installation (ADMIN_EMAILS)',
    });
    expect(AuthReply.parse((await refresh(eve.refreshToken)).json()).user.admin).toBe(false);

    const boss = await registerUser(t.app, { email: 'boss@example.org' });
    expect(boss.user.admin).toBe(true);
    expect((await update(boss.idToken, { email: 'chief@example.org' })).statusCode).toBe(200);
    expect(AuthReply.parse((await refresh(boss.refreshToken)).json()).user.admin).toBe(true);
    const listed = AdminUsers.parse((await t.app.inject({ url: '/api/admin/users', headers: bearer(first.idToken) })).json());
    expect(listed.find((user) => user.uid === boss.user.uid)).toMatchObject({ email: 'chief@example.org', admin: true, adminByConfig: false });
  });

  it('stops a reset link mailed to the old address', async () => {
    const fay = await registerUser(t.app);
    const now = t.clock.now();
    await t.storage.db
      .insertInto('password_resets')
      .values({ token_hash: 'a-reset-link', user_id: fay.user.uid, created_at: now, expires_at: now + 60 * 60 * 1000, used_at: null })
      .execute();
    expect((await update(fay.idToken, { displayName: 'Fay' })).statusCode).toBe(200);
    const unchanged = await t.storage.db.selectFrom('password_resets').select('used_at').where('token_hash', '=', 'a-reset-link').executeTakeFirstOrThrow();
    expect(unchanged.used_at).toBeNull();
    expect((await update(fay.idToken, { email: 'fay@example.net' })).statusCode).toBe(200);
    const used = await t.storage.db.selectFrom('password_resets').select('used_at').where('token_hash', '=', 'a-reset-link').executeTakeFirstOrThrow();
    expect(Number(used.used_at)).toBe(now);
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'PUT', url: '/api/users/me', payload: { displayName: 'Nobody' } })).statusCode).toBe(401);
  });
});
