import { beforeEach, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { UserSessions } from '../../../contract/sessions.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';
import { REFRESH_REUSE_GRACE_MS } from './auth.service.ts';

const REFRESH = 'organiser_refresh';
const PASSWORD = 'correct horse battery';

describe.each(testDialects)('sessions on %s', (dialect) => {
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

  const me = (app: TestApp, idToken: string) => app.app.inject({ url: '/api/users/me', headers: bearer(idToken) });
  const refresh = (token: string) => t.app.inject({ method: 'POST', url: '/auth/refresh', cookies: { [REFRESH]: token } });
  const refreshCookie = (response: { cookies: { name: string; value: string }[] }) =>
    response.cookies.find((cookie) => cookie.name === REFRESH)?.value;
  const signIn = async (email: string, userAgent: string, remoteAddress: string) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'user-agent': userAgent },
      remoteAddress,
      payload: { email, password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    return { idToken: response.json().idToken as string, refreshToken: refreshCookie(response)! };
  };
  const sessionsOf = async (idToken: string) => {
    const response = await t.app.inject({ url: '/api/users/me/sessions', headers: bearer(idToken) });
    expect(response.statusCode).toBe(200);
    return UserSessions.parse(response.json());
  };

  it('stops a signed-out session\'s bearer token at once, and after a restart too', async () => {
    const ann = await registerUser(t.app, { password: PASSWORD });
    expect((await me(t, ann.idToken)).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/auth/logout', cookies: { [REFRESH]: ann.refreshToken } });
    const refused = await me(t, ann.idToken);
    expect(refused.statusCode).toBe(401);
    expect(ErrorReply.parse(refused.json()).message).toBe('Your session has ended; please sign in again');

    await t.close();
    t = await buildTestApp(database, { clock: t.clock });
    expect((await me(t, ann.idToken)).statusCode).toBe(401);
  });

  it('gives a refresh token reused within the grace its one successor, never new sessions', async () => {
    const ann = await registerUser(t.app, { password: PASSWORD });
    const replies = await Promise.all(Array.from({ length: 6 }, () => refresh(ann.refreshToken)));
    expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const successors = new Set(replies.map(refreshCookie));
    expect(successors.size).toBe(1);
    t.clock.advance(REFRESH_REUSE_GRACE_MS - 1000);
    expect(refreshCookie(await refresh(ann.refreshToken))).toBe([...successors][0]);
    const rows = await t.storage.db.selectFrom('sessions').select(['family_id', 'rotated_at']).execute();
    expect(rows).toHaveLength(2);
    expect(rows.filter((row) => row.rotated_at === null)).toHaveLength(1);
    expect(await sessionsOf(ann.idToken)).toHaveLength(1);
    expect((await refresh([...successors][0]!)).statusCode).toBe(200);
  });

  it('lists where the user is signed in, with device, address and last use, and the current one marked', async () => {
    const ann = await registerUser(t.app, { email: 'ann@example.org', password: PASSWORD });
    t.clock.advance(60_000);
    const phone = await signIn('ann@example.org', 'Phone Browser/1.0', '192.0.2.7');
    await registerUser(t.app, { email: 'bob@example.org', password: PASSWORD });
    const sessions = await sessionsOf(phone.idToken);
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ userAgent: 'Phone Browser/1.0', address: '192.0.2.7', current: true });
    expect(sessions[1]).toMatchObject({ current: false });
    expect(Date.parse(sessions[0]!.lastUsedAt) - Date.parse(sessions[1]!.lastUsedAt)).toBe(60_000);
    expect((await sessionsOf(ann.idToken)).map((session) => session.current)).toEqual([false, true]);
  });

  it('signs out everywhere else: every other session stops at once, this one goes on', async () => {
    const laptop = await registerUser(t.app, { email: 'ann@example.org', password: PASSWORD });
    const phone = await signIn('ann@example.org', 'Phone', '192.0.2.7');
    const tablet = await signIn('ann@example.org', 'Tablet', '192.0.2.8');
    const bob = await registerUser(t.app, { email: 'bob@example.org', password: PASSWORD });
    const out = await t.app.inject({ method: 'DELETE', url: '/api/users/me/sessions', headers: bearer(laptop.idToken) });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ended: 2 });
    for (const other of [phone, tablet]) {
      expect((await me(t, other.idToken)).statusCode).toBe(401);
      expect((await refresh(other.refreshToken)).statusCode).toBe(401);
    }
    expect((await me(t, laptop.idToken)).statusCode).toBe(200);
    expect((await me(t, bob.idToken)).statusCode).toBe(200);
    expect((await sessionsOf(laptop.idToken)).map((session) => session.current)).toEqual([true]);
  });

  it('ends one session by its id; another user\'s session id is a 404 that ends nothing', async () => {
    const ann = await registerUser(t.app, { email: 'ann@example.org', password: PASSWORD });
    const phone = await signIn('ann@example.org', 'Phone', '192.0.2.7');
    const bob = await registerUser(t.app, { email: 'bob@example.org', password: PASSWORD });
    const [bobSession] = await sessionsOf(bob.idToken);
    const end = (idToken: string, id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/users/me/sessions/${id}`, headers: bearer(idToken) });

    const foreign = await end(ann.idToken, bobSession!.id);
    expect(foreign.statusCode).toBe(404);
    expect(ErrorReply.parse(foreign.json()).message).toBe('Session not found');
    expect((await me(t, bob.idToken)).statusCode).toBe(200);

    const phoneSession = (await sessionsOf(ann.idToken)).find((session) => session.userAgent === 'Phone')!;
    expect((await end(ann.idToken, phoneSession.id)).statusCode).toBe(204);
    expect((await me(t, phone.idToken)).statusCode).toBe(401);
    expect((await me(t, ann.idToken)).statusCode).toBe(200);
    expect((await end(ann.idToken, phoneSession.id)).statusCode).toBe(404);
  });

  it.runIf(dialect === 'postgres')('stops a session revoked through one instance on another at once', async () => {
    const other = await buildTestApp(database, { clock: t.clock });
    try {
      const ann = await registerUser(t.app, { password: PASSWORD });
      expect((await me(other, ann.idToken)).statusCode).toBe(200);
      await t.app.inject({ method: 'POST', url: '/auth/logout', cookies: { [REFRESH]: ann.refreshToken } });
      const deadline = Date.now() + 1000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) {
        status = (await me(other, ann.idToken)).statusCode;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
