import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminUser, AdminUsers, Invitation, PendingInvitations } from '../../../contract/admin.ts';
import { AuthReply } from '../../../contract/auth.ts';
import { CalendarSubscription } from '../../../contract/calendar.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { bookmarksClient } from '../test/bookmarks-client.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, type TestDatabase, testDialects } from '../test/test-app.ts';
import { quotedPrintable, startTestSmtp, type TestSmtp } from '../test/test-smtp.ts';

const PASSWORD = 'a long enough password';
const DAY = 24 * 60 * 60 * 1000;

type Response = { statusCode: number; body: string; json(): unknown };
const refusal = (response: Response) => ({ status: response.statusCode, message: ErrorReply.parse(response.json()).message });

describe.each(testDialects)('administration on %s', (dialect) => {
  let database: TestDatabase & { drop(): Promise<void> };
  let smtp: TestSmtp;
  let t: TestApp;
  /** The first account, so an administrator. */
  let admin: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    return () => smtp.close();
  });

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    admin = await registerUser(t.app, { email: 'admin@example.org', displayName: 'Ada', password: PASSWORD });
    return async () => {
      await t.close();
      await database.drop();
    };
  });

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) });
  const listUsers = async (token = admin.idToken) => {
    const response = await call(token, 'GET', '/api/admin/users');
    expect(response.statusCode, response.body).toBe(200);
    return AdminUsers.parse(response.json());
  };
  const update = (id: string, payload: object, token = admin.idToken) => call(token, 'PUT', `/api/admin/users/${id}`, payload);
  const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
  const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/auth/refresh', cookies: { organiser_refresh: refreshToken } });
  const me = (token: string) => call(token, 'GET', '/api/users/me');

  it('lists every account with its administrator flag, sign-in kinds, dates and counts', async () => {
    const bob = await registerUser(t.app, { email: 'bob@example.org', displayName: 'Bob' });
    const bookmarks = bookmarksClient(t.app, bob.idToken);
    await bookmarks.create({ title: 'One', link: 'https://example.org/1' });
    await bookmarks.create({ title: 'Two', link: 'https://example.org/2' });
    const task = await call(bob.idToken, 'POST', '/schedule/', { name: 'Water', first_schedule_time: '2026-02-01T08:30Z' });
    expect(task.statusCode, task.body).toBe(200);

    const users = await listUsers();
    const now = new Date(t.clock.now()).toISOString();
    expect(users).toEqual([
      {
        uid: admin.user.uid,
        displayName: 'Ada',
        email: 'admin@example.org',
        admin: true,
        adminByConfig: false,
        disabled: false,
        passwordChangeRequired: false,
        signIn: ['password'],
        createdAt: now,
        lastSeenAt: now,
        bookmarks: 0,
        tasks: 0,
      },
      expect.objectContaining({ uid: bob.user.uid, email: 'bob@example.org', admin: false, bookmarks: 2, tasks: 1, lastSeenAt: now }),
    ]);
  });

  it('is for administrators only: a signed-out caller gets 401, any other user 403 on every call', async () => {
    const bob = await registerUser(t.app);
    expect((await t.app.inject({ url: '/api/admin/users' })).statusCode).toBe(401);
    const calls = [
      await call(bob.idToken, 'GET', '/api/admin/users'),
      await call(bob.idToken, 'POST', '/api/admin/invitations', { email: 'x@example.org' }),
      await update(admin.user.uid, { admin: false }, bob.idToken),
      await call(bob.idToken, 'DELETE', `/api/admin/users/${admin.user.uid}`),
      await call(bob.idToken, 'GET', '/api/admin/invitations'),
      await call(bob.idToken, 'DELETE', `/api/admin/invitations/${'a'.repeat(64)}`),
    ];
    expect(calls.map((response) => response.statusCode)).toEqual([403, 403, 403, 403, 403, 403]);
    expect((await listUsers()).find((user) => user.uid === admin.user.uid)?.admin).toBe(true);
  });

  it('makes and unmakes administrators, never the last one; an unmade one loses the page at once', async () => {
    const bob = await registerUser(t.app);
    expect(refusal(await update(admin.user.uid, { admin: false }))).toEqual({
      status: 409,
      message: 'Cannot unmake the last administrator; make another account administrator first',
    });
    const made = await update(bob.user.uid, { admin: true });
    expect(made.statusCode, made.body).toBe(200);
    expect(AdminUser.parse(made.json()).admin).toBe(true);

    // A disabled administrator does not count as the other one.
    expect((await update(bob.user.uid, { disabled: true })).statusCode).toBe(200);
    expect((await update(admin.user.uid, { admin: false })).statusCode).toBe(409);
    expect((await update(bob.user.uid, { disabled: false })).statusCode).toBe(200);

    const bobAsAdmin = AuthReply.parse((await login(bob.user.email, PASSWORD)).json()).idToken;
    expect((await update(admin.user.uid, { admin: false }, bobAsAdmin)).statusCode).toBe(200);
    // Ada's token still says admin; the database no longer does.
    expect((await call(admin.idToken, 'GET', '/api/admin/users')).statusCode).toBe(403);
    expect(refusal(await update(bob.user.uid, { admin: false }, bobAsAdmin)).status).toBe(409);
  });

  it('refuses bad input with a 400 and an unknown account with a 404, changing nothing', async () => {
    const bob = await registerUser(t.app);
    const refused = [
      await update(bob.user.uid, {}),
      await update(bob.user.uid, { admin: 'yes' }),
      await update(bob.user.uid, { role: 'admin' }),
      await update(bob.user.uid, { temporaryPassword: 'short' }),
      await update('no-such-user', { disabled: true }),
      await call(admin.idToken, 'DELETE', '/api/admin/users/no-such-user'),
      await call(admin.idToken, 'POST', '/api/admin/invitations', { email: 'not an address' }),
      await update(admin.user.uid, { disabled: true }),
      await call(admin.idToken, 'DELETE', `/api/admin/users/${admin.user.uid}`),
    ].map(refusal);
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400, 404, 404, 400, 409, 409]);
    expect(refused[0]?.message).toBe('give at least one of admin, disabled, temporaryPassword');
    const users = await listUsers();
    expect(users.map((user) => [user.admin, user.disabled, user.passwordChangeRequired])).toEqual([
      [true, false, false],
      [false, false, false],
    ]);
    expect((await me(bob.idToken)).statusCode).toBe(200);
  });

  it('disables an account: its tokens, refresh cookie and calendar feed stop at once, and it cannot sign in until enabled', async () => {
    const bob = await registerUser(t.app, { password: PASSWORD });
    const feed = CalendarSubscription.parse((await call(bob.idToken, 'POST', '/api/users/me/calendar')).json());
    const feedPath = new URL(feed.url).pathname;
    expect((await t.app.inject({ url: feedPath })).statusCode).toBe(200);

    const disabled = await update(bob.user.uid, { disabled: true });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(AdminUser.parse(disabled.json()).disabled).toBe(true);

    expect(refusal(await me(bob.idToken))).toEqual({ status: 401, message: 'This account has been disabled; ask an administrator' });
    expect((await refresh(bob.refreshToken)).statusCode).toBe(401);
    expect((await t.app.inject({ url: feedPath })).statusCode).toBe(404);
    expect(refusal(await login(bob.user.email, PASSWORD))).toEqual({ status: 403, message: 'This account has been disabled; ask an administrator' });
    // A wrong password is told as any wrong password, not that the account is disabled.
    expect((await login(bob.user.email, 'not the password at all')).statusCode).toBe(401);

    expect((await update(bob.user.uid, { disabled: false })).statusCode).toBe(200);
    const again = await login(bob.user.email, PASSWORD);
    expect(again.statusCode).toBe(200);
    expect((await me(AuthReply.parse(again.json()).idToken)).statusCode).toBe(200);
    // The sessions it had when disabled stay ended.
    expect((await me(bob.idToken)).statusCode).toBe(401);
    expect((await t.app.inject({ url: feedPath })).statusCode).toBe(200);
  });

  it('keeps a disabled account refused after a restart', async () => {
    const bob = await registerUser(t.app);
    await update(bob.user.uid, { disabled: true });
    await t.app.close();
    await t.storage.close();
    t = await buildTestApp(database, { clock: t.clock });
    expect((await me(bob.idToken)).statusCode).toBe(401);
  });

  it.runIf(dialect === 'postgres')('stops a disabled account on another instance at once', async () => {
    const other = await buildTestApp(database, { clock: t.clock });
    try {
      const bob = await registerUser(t.app);
      const otherMe = () => other.app.inject({ url: '/api/users/me', headers: bearer(bob.idToken) });
      expect((await otherMe()).statusCode).toBe(200);
      await update(bob.user.uid, { disabled: true });
      const deadline = Date.now() + 2000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) {
        status = (await otherMe()).statusCode;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it.runIf(dialect === 'postgres')('stops an unmade administrator on another instance at once, whatever the call', async () => {
    const other = await buildTestApp(database, { clock: t.clock });
    try {
      const bob = await registerUser(t.app, { password: PASSWORD });
      expect((await update(bob.user.uid, { admin: true })).statusCode).toBe(200);
      const bobAsAdmin = AuthReply.parse((await login(bob.user.email, PASSWORD)).json()).idToken;
      const cancelElsewhere = () => other.app.inject({ method: 'DELETE', url: '/api/books/index/no-such-load', headers: bearer(bobAsAdmin) });
      expect((await cancelElsewhere()).statusCode).toBe(404);
      expect((await update(bob.user.uid, { admin: false })).statusCode).toBe(200);
      expect((await cancelElsewhere()).statusCode).toBe(403);
      expect((await other.app.inject({ url: '/api/admin/users', headers: bearer(bobAsAdmin) })).statusCode).toBe(403);
    } finally {
      await other.close();
    }
  });

  it('sets a temporary password: sessions end, and the next sign-in must change it before anything else', async () => {
    const bob = await registerUser(t.app, { password: PASSWORD });
    const temporary = 'a temporary passphrase';
    const set = await update(bob.user.uid, { temporaryPassword: temporary });
    expect(set.statusCode, set.body).toBe(200);
    expect(AdminUser.parse(set.json()).passwordChangeRequired).toBe(true);
    expect((await me(bob.idToken)).statusCode).toBe(401);
    expect((await login(bob.user.email, PASSWORD)).statusCode).toBe(401);

    const signedIn = await login(bob.user.email, temporary);
    const reply = AuthReply.parse(signedIn.json());
    expect(reply.passwordChangeRequired).toBe(true);
    const cookie = signedIn.cookies.find((c) => c.name === 'organiser_refresh')!.value;
    expect(refusal(await call(reply.idToken, 'GET', '/bookmarks/'))).toEqual({
      status: 403,
      message: 'Choose a new password first: an administrator set a temporary one (PUT /api/users/me/password)',
    });
    expect((await me(reply.idToken)).statusCode).toBe(200);

    const changed = await call(reply.idToken, 'PUT', '/api/users/me/password', { current: temporary, password: 'my very own passphrase' });
    expect(changed.statusCode, changed.body).toBe(200);
    const renewed = AuthReply.parse((await refresh(cookie)).json());
    expect(renewed.passwordChangeRequired).toBe(false);
    expect((await call(renewed.idToken, 'GET', '/bookmarks/')).statusCode).toBe(200);
    expect((await listUsers()).find((user) => user.uid === bob.user.uid)?.passwordChangeRequired).toBe(false);
  });

  it('deletes an account and everything it owns; its token stops at once and other accounts keep theirs', async () => {
    const bob = await registerUser(t.app);
    const cy = await registerUser(t.app);
    for (const user of [bob, cy]) {
      const bookmarks = bookmarksClient(t.app, user.idToken);
      await bookmarks.createIndexed({ title: 'Shared word kiwi', link: `https://example.org/${user.user.uid}`, tags: ['fruit'] });
      expect((await call(user.idToken, 'POST', '/schedule/', { name: 'Water', first_schedule_time: '2026-02-01T08:30Z' })).statusCode).toBe(200);
    }
    expect((await call(bob.idToken, 'POST', '/api/users/me/calendar')).statusCode).toBe(200);

    const deleted = await call(admin.idToken, 'DELETE', `/api/admin/users/${bob.user.uid}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await me(bob.idToken)).statusCode).toBe(401);
    expect((await refresh(bob.refreshToken)).statusCode).toBe(401);
    expect((await listUsers()).map((user) => user.uid)).toEqual([admin.user.uid, cy.user.uid]);

    const { db } = t.storage;
    const left = async (table: 'bookmarks' | 'bookmark_index' | 'bookmark_facets' | 'tasks' | 'sessions' | 'calendar_tokens', column: 'owner_id' | 'user_id') =>
      (await db.selectFrom(table).select(column as never).where(column as never, '=', bob.user.uid as never).execute()).length;
    expect([
      await left('bookmarks', 'owner_id'),
      await left('bookmark_index', 'owner_id'),
      await left('bookmark_facets', 'owner_id'),
      await left('tasks', 'owner_id'),
      await left('sessions', 'user_id'),
      await left('calendar_tokens', 'user_id'),
    ]).toEqual([0, 0, 0, 0, 0, 0]);
    const found = await bookmarksClient(t.app, cy.idToken).search({ key_words: ['kiwi'] });
    expect(found.total).toBe(1);
    expect((await call(admin.idToken, 'DELETE', `/api/admin/users/${bob.user.uid}`)).statusCode).toBe(404);
    // The address is free again.
    expect((await t.app.inject({ method: 'POST', url: '/auth/register', payload: { email: bob.user.email, password: PASSWORD, displayName: 'Bob again' } })).statusCode).toBe(200);
  });

  describe('invitations', () => {
    beforeEach(async () => {
      await t.close();
      await database.drop();
      database = await createTestDatabase(dialect);
      t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'false' } });
      admin = await registerUser(t.app, { email: 'admin@example.org', displayName: 'Ada', password: PASSWORD });
    });

    const invite = async (email: string) => {
      const response = await call(admin.idToken, 'POST', '/api/admin/invitations', { email });
      expect(response.statusCode, response.body).toBe(200);
      return Invitation.parse(response.json());
    };
    const tokenOf = (invitation: Invitation) => new URL(invitation.url).searchParams.get('token')!;
    const register = (payload: object) => t.app.inject({ method: 'POST', url: '/auth/register', payload });

    it('opens sign-up for its one e-mail while sign-up is closed, once', async () => {
      const invitation = await invite('Dee@Example.org');
      expect(invitation.mailed).toBe(false);
      expect(invitation.url).toMatch(/^http:\/\/localhost(:\d+)?\/join\?token=[A-Za-z0-9_-]{43}$/);
      expect(invitation.expiresAt).toBe(new Date(t.clock.now() + 7 * DAY).toISOString());
      const token = tokenOf(invitation);
      expect((await t.app.inject({ url: `/auth/invitations/${token}` })).json()).toEqual({ email: 'dee@example.org' });

      const closed = await register({ email: 'dee@example.org', password: PASSWORD, displayName: 'Dee' });
      expect(closed.statusCode).toBe(403);
      expect(refusal(await register({ email: 'eve@example.org', password: PASSWORD, displayName: 'Eve', invitation: token }))).toEqual({
        status: 400,
        message: 'email: this invitation is for dee@example.org',
      });
      const joined = await register({ email: 'dee@example.org', password: PASSWORD, displayName: 'Dee', invitation: token });
      expect(joined.statusCode, joined.body).toBe(200);
      expect(AuthReply.parse(joined.json()).user.admin).toBe(false);
      expect((await listUsers()).map((user) => user.email)).toEqual(['admin@example.org', 'dee@example.org']);

      const again = await register({ email: 'dee@example.org', password: PASSWORD, displayName: 'Dee', invitation: token });
      expect(refusal(again)).toEqual({ status: 400, message: 'invitation: this invitation has been used or has expired; ask for a new one' });
      expect((await t.app.inject({ url: `/auth/invitations/${token}` })).statusCode).toBe(404);
    });

    it('expires after seven days', async () => {
      const token = tokenOf(await invite('fay@example.org'));
      t.clock.advance(7 * DAY + 1);
      const late = await register({ email: 'fay@example.org', password: PASSWORD, displayName: 'Fay', invitation: token });
      expect(late.statusCode).toBe(400);
      expect((await t.app.inject({ url: `/auth/invitations/${token}` })).statusCode).toBe(404);
    });

    it('refuses an e-mail that already has an account, and an unknown token', async () => {
      expect(refusal(await call(admin.idToken, 'POST', '/api/admin/invitations', { email: 'admin@example.org' })).status).toBe(409);
      const forged = 'A'.repeat(43);
      expect((await register({ email: 'gus@example.org', password: PASSWORD, displayName: 'Gus', invitation: forged })).statusCode).toBe(400);
      expect((await listUsers()).length).toBe(1);
    });

    const pending = async (token = admin.idToken) => {
      const response = await call(token, 'GET', '/api/admin/invitations');
      expect(response.statusCode, response.body).toBe(200);
      return PendingInvitations.parse(response.json());
    };

    it('lists the pending ones, newest first: for whom, by whom, sent when, until when', async () => {
      // The clock moves past the access token's life: Ada signs in again after each move.
      const later = async (ms: number) => {
        t.clock.advance(ms);
        admin = { ...admin, idToken: AuthReply.parse((await login('admin@example.org', PASSWORD)).json()).idToken };
      };
      const sentAt = t.clock.now();
      await invite('ivy@example.org');
      await later(DAY);
      await invite('jon@example.org');
      await later(60_000);
      const used = await invite('kim@example.org');
      expect((await register({ email: 'kim@example.org', password: PASSWORD, displayName: 'Kim', invitation: tokenOf(used) })).statusCode).toBe(200);

      const list = await pending();
      expect(list.map((invitation) => invitation.email)).toEqual(['jon@example.org', 'ivy@example.org']);
      expect(list[1]).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{64}$/),
        email: 'ivy@example.org',
        invitedBy: 'Ada',
        createdAt: new Date(sentAt).toISOString(),
        expiresAt: new Date(sentAt + 7 * DAY).toISOString(),
      });

      // The first one sent expires first, and leaves the list when it does.
      await later(6 * DAY);
      expect((await pending()).map((invitation) => invitation.email)).toEqual(['jon@example.org']);
    });

    it('revokes one: its link then answers as an unknown one, and the others stay', async () => {
      const revoked = tokenOf(await invite('mia@example.org'));
      const kept = tokenOf(await invite('ned@example.org'));
      const id = (await pending()).find((invitation) => invitation.email === 'mia@example.org')!.id;

      const response = await call(admin.idToken, 'DELETE', `/api/admin/invitations/${id}`);
      expect(response.statusCode, response.body).toBe(204);
      expect((await pending()).map((invitation) => invitation.email)).toEqual(['ned@example.org']);
      const unknown = await t.app.inject({ url: `/auth/invitations/${'B'.repeat(43)}` });
      const gone = await t.app.inject({ url: `/auth/invitations/${revoked}` });
      expect([gone.statusCode, gone.json()]).toEqual([unknown.statusCode, unknown.json()]);
      expect(gone.statusCode).toBe(404);
      const refused = await register({ email: 'mia@example.org', password: PASSWORD, displayName: 'Mia', invitation: revoked });
      expect(refusal(refused)).toEqual({ status: 400, message: 'invitation: this invitation has been used or has expired; ask for a new one' });
      expect((await t.app.inject({ url: `/auth/invitations/${kept}` })).json()).toEqual({ email: 'ned@example.org' });

      // Revoked twice, unknown, used or of bad shape: a 404 or 400, and nothing changes.
      const ned = (await pending())[0]!;
      expect((await register({ email: 'ned@example.org', password: PASSWORD, displayName: 'Ned', invitation: kept })).statusCode).toBe(200);
      const refusals = [
        await call(admin.idToken, 'DELETE', `/api/admin/invitations/${id}`),
        await call(admin.idToken, 'DELETE', `/api/admin/invitations/${'0'.repeat(64)}`),
        await call(admin.idToken, 'DELETE', `/api/admin/invitations/${ned.id}`),
      ].map(refusal);
      expect(refusals).toEqual(Array(3).fill({ status: 404, message: 'Invitation not found' }));
      expect((await listUsers()).map((user) => user.email)).toEqual(['admin@example.org', 'ned@example.org']);
    });

    it('is revoked only by an administrator as the account is now, not as its token says', async () => {
      await invite('oli@example.org');
      const [only] = await pending();
      // Sign-up is closed here: Bob joins through an invitation and is then made administrator.
      const bobInvitation = tokenOf(await invite('bob@example.org'));
      const bobJoined = AuthReply.parse((await register({ email: 'bob@example.org', password: PASSWORD, displayName: 'Bob', invitation: bobInvitation })).json());
      expect((await update(bobJoined.user.uid, { admin: true })).statusCode).toBe(200);
      const bobAsAdmin = AuthReply.parse((await login('bob@example.org', PASSWORD)).json()).idToken;
      expect((await update(bobJoined.user.uid, { admin: false })).statusCode).toBe(200);

      // Bob's token still says administrator; his account no longer does.
      expect((await call(bobAsAdmin, 'DELETE', `/api/admin/invitations/${only!.id}`)).statusCode).toBe(403);
      expect((await call(bobAsAdmin, 'GET', '/api/admin/invitations')).statusCode).toBe(403);
      expect((await pending()).map((invitation) => invitation.email)).toEqual(['oli@example.org']);
    });

    it('is mailed when SMTP is set', async () => {
      await t.close();
      await database.drop();
      database = await createTestDatabase(dialect);
      t = await buildTestApp(database, { env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://organiser.example.org' } });
      admin = await registerUser(t.app, { email: 'admin@example.org', displayName: 'Ada', password: PASSWORD });
      const before = smtp.received.length;
      const invitation = await invite('hal@example.org');
      expect(invitation.mailed).toBe(true);
      expect(invitation.url.startsWith('https://organiser.example.org/join?token=')).toBe(true);
      await smtp.waitFor(before + 1);
      const mail = smtp.received[before]!;
      expect(mail.to).toEqual(['hal@example.org']);
      expect(mail.subject).toBe('Ada invites you to Organiser');
      expect(quotedPrintable(mail.raw)).toContain(invitation.url);
    });
  });

  afterAll(() => smtp.setDecision(() => 'accept'));
});
