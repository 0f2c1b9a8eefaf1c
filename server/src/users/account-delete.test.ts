import { beforeEach, describe, expect, it } from 'vitest';
import { DELETE_EMAIL_MISMATCH } from '../../../contract/account.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { Task } from '../../../contract/tasks.ts';
import { bookmarksClient } from '../test/bookmarks-client.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

type Response = { statusCode: number; body: string; json(): unknown };
const refusal = (response: Response) => ({ status: response.statusCode, message: ErrorReply.parse(response.json()).message });

describe.each(testDialects)('deleting one’s own account on %s', (dialect) => {
  let t: TestApp;

  beforeEach(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    return t.close;
  });

  const deleteMe = (token: string, payload: object) => t.app.inject({ method: 'DELETE', url: '/api/users/me', headers: bearer(token), payload });
  const me = (token: string) => t.app.inject({ url: '/api/users/me', headers: bearer(token) });
  const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/auth/refresh', cookies: { organiser_refresh: refreshToken } });

  /** A user with an indexed bookmark and a task with a notice waiting to be sent. */
  async function userWithData() {
    const user = await registerUser(t.app);
    await bookmarksClient(t.app, user.idToken).createIndexed({ title: 'Shared word kiwi', link: `https://example.org/${user.user.uid}`, tags: ['fruit'] });
    const created = await t.app.inject({
      method: 'POST',
      url: '/schedule/',
      headers: bearer(user.idToken),
      payload: { name: 'Water', first_schedule_time: '2026-02-01T08:30Z', emails: [user.user.email] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const task = Task.parse(created.json());
    await t.storage.db
      .insertInto('task_notices')
      .values({
        id: `${task.id}.0`,
        task_id: task.id,
        recipients: JSON.stringify([user.user.email]),
        subject: 'Water',
        body: 'Water is due',
        due_at: t.clock.now(),
        created_at: t.clock.now(),
        attempts: 0,
        next_attempt_at: t.clock.now(),
        sent_at: null,
        last_error: null,
      })
      .execute();
    return user;
  }

  async function rowsOf(userId: string) {
    const { db } = t.storage;
    const count = async (query: Promise<unknown[]>) => (await query).length;
    return {
      bookmarks: await count(db.selectFrom('bookmarks').select('id').where('owner_id', '=', userId).execute()),
      index: await count(db.selectFrom('bookmark_index').select('owner_id').where('owner_id', '=', userId).execute()),
      tasks: await count(db.selectFrom('tasks').select('id').where('owner_id', '=', userId).execute()),
      notices: await count(
        db
          .selectFrom('task_notices')
          .innerJoin('tasks', 'tasks.id', 'task_notices.task_id')
          .select('task_notices.id')
          .where('tasks.owner_id', '=', userId)
          .execute(),
      ),
      orphanNotices: await count(
        db
          .selectFrom('task_notices')
          .leftJoin('tasks', 'tasks.id', 'task_notices.task_id')
          .select('task_notices.id')
          .where('tasks.id', 'is', null)
          .execute(),
      ),
      sessions: await count(db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()),
      users: await count(db.selectFrom('users').select('id').where('id', '=', userId).execute()),
    };
  }

  it('deletes the account with its bookmarks, index entries, tasks, pending notices and sessions; its tokens stop at once; others keep theirs', async () => {
    await registerUser(t.app);
    const ann = await userWithData();
    const bob = await userWithData();
    expect(await rowsOf(ann.user.uid)).toEqual({ bookmarks: 1, index: 1, tasks: 1, notices: 1, orphanNotices: 0, sessions: 1, users: 1 });

    const deleted = await deleteMe(ann.idToken, { email: `  ${ann.user.email.toUpperCase()} ` });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(deleted.cookies.find((cookie) => cookie.name === 'organiser_refresh')?.value).toBe('');

    expect((await me(ann.idToken)).statusCode).toBe(401);
    expect((await refresh(ann.refreshToken)).statusCode).toBe(401);
    expect(await rowsOf(ann.user.uid)).toEqual({ bookmarks: 0, index: 0, tasks: 0, notices: 0, orphanNotices: 0, sessions: 0, users: 0 });

    expect(await rowsOf(bob.user.uid)).toEqual({ bookmarks: 1, index: 1, tasks: 1, notices: 1, orphanNotices: 0, sessions: 1, users: 1 });
    expect((await bookmarksClient(t.app, bob.idToken).search({ key_words: ['kiwi'] })).total).toBe(1);
    expect((await me(bob.idToken)).statusCode).toBe(200);
    // Its password signs in no more.
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: ann.user.email, password: ann.password } })).statusCode).toBe(401);
  });

  it('refuses an e-mail that is not the account’s, or none, and changes nothing', async () => {
    await registerUser(t.app);
    const cy = await userWithData();
    const other = await registerUser(t.app);
    const refused = [
      await deleteMe(cy.idToken, { email: other.user.email }),
      await deleteMe(cy.idToken, { email: 'cy' }),
      await deleteMe(cy.idToken, { email: '   ' }),
      await deleteMe(cy.idToken, {}),
      await deleteMe(cy.idToken, { email: cy.user.email, everything: true }),
    ].map(refusal);
    expect(refused).toEqual([
      { status: 400, message: DELETE_EMAIL_MISMATCH },
      { status: 400, message: DELETE_EMAIL_MISMATCH },
      { status: 400, message: 'email: is required' },
      { status: 400, message: expect.stringMatching(/^email: /) },
      { status: 400, message: expect.stringMatching(/everything/) },
    ]);
    expect(await rowsOf(cy.user.uid)).toEqual({ bookmarks: 1, index: 1, tasks: 1, notices: 1, orphanNotices: 0, sessions: 1, users: 1 });
    expect((await me(cy.idToken)).statusCode).toBe(200);
    expect((await me(other.idToken)).statusCode).toBe(200);
  });

  it('refuses the last administrator, as the administration does', async () => {
    const first = await registerUser(t.app);
    const refused = await deleteMe(first.idToken, { email: first.user.email });
    expect(refusal(refused)).toEqual({ status: 409, message: 'Cannot delete the last administrator; make another account administrator first' });
    expect((await me(first.idToken)).statusCode).toBe(200);

    const second = await registerUser(t.app);
    expect((await t.app.inject({ method: 'PUT', url: `/api/admin/users/${second.user.uid}`, headers: bearer(first.idToken), payload: { admin: true } })).statusCode).toBe(200);
    expect((await deleteMe(first.idToken, { email: first.user.email })).statusCode).toBe(204);
    expect((await me(second.idToken)).statusCode).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/users/me', payload: { email: 'x@example.org' } });
    expect(response.statusCode).toBe(401);
  });
});
