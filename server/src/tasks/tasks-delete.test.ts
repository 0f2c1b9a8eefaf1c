import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { Task, TaskPage } from '../../../contract/tasks.ts';
import { manualClock } from '../test/manual-clock.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, type TestDatabase, testDialects } from '../test/test-app.ts';
import { startTestSmtp, type TestSmtp } from '../test/test-smtp.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testDialects)('deleting a task on %s', (dialect) => {
  let database: TestDatabase & { drop(): Promise<void> };
  let smtp: TestSmtp;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    smtp = await startTestSmtp();
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true', SMTP_URL: smtp.url }, clock: manualClock(Date.UTC(2026, 2, 5, 12)) });
    await t.app.ready();
    return async () => {
      await t.close();
      await smtp.close();
      await database.drop();
    };
  });
  afterAll(() => smtp.setDecision(() => 'accept'));

  /** A user whose `token()` signs in again, since the test clock outruns a bearer token. */
  const user = async () => {
    const { user: me, password, idToken } = await registerUser(t.app);
    let current = { token: idToken, at: t.clock.now() };
    return async () => {
      if (t.clock.now() - current.at < 10 * MINUTE) return current.token;
      const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: me.email, password } });
      expect(login.statusCode, login.body).toBe(200);
      current = { token: (login.json() as { idToken: string }).idToken, at: t.clock.now() };
      return current.token;
    };
  };
  type Token = Awaited<ReturnType<typeof user>>;
  const call = async (token: Token, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(await token()), ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (token: Token, body: Record<string, unknown>) => {
    const response = await call(token, 'POST', '/schedule', body);
    expect(response.statusCode, response.body).toBe(200);
    await t.settled();
    return Task.parse(response.json());
  };
  const advanceTo = async (target: number) => {
    await t.settled();
    t.clock.advance(Math.max(0, target - t.clock.now()));
    await t.settled();
  };
  const rowsOf = async (id: string) => ({
    notices: (await t.storage.db.selectFrom('task_notices').select('id').where('task_id', '=', id).execute()).length,
    completions: (await t.storage.db.selectFrom('task_completions').select('id').where('task_id', '=', id).execute()).length,
  });
  const mailsFor = (name: string) => smtp.received.filter((mail) => mail.subject === `Task due: ${name}`).length;

  it('answers 204, then the task is gone with its history; another user\'s id answers 404 and deletes nothing', async () => {
    const alice = await user();
    const bob = await user();
    const task = await create(alice, { name: 'Short-lived', first_schedule_time: iso(t.clock.now() + HOUR) });
    expect((await call(alice, 'PUT', `/schedule/${task.id}`, { type: 'complete' })).statusCode).toBe(200);

    const theirs = await call(bob, 'DELETE', `/schedule/${task.id}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual((await call(bob, 'DELETE', '/schedule/no-such-task')).json());
    expect((await call(alice, 'GET', `/schedule/${task.id}`)).statusCode).toBe(200);
    expect(await rowsOf(task.id)).toMatchObject({ completions: 1 });

    const deleted = await call(alice, 'DELETE', `/schedule/${task.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await call(alice, 'GET', `/schedule/${task.id}`)).statusCode).toBe(404);
    expect(ErrorReply.parse((await call(alice, 'DELETE', `/schedule/${task.id}`)).json()).message).toBe('Task not found');
    expect(TaskPage.parse((await call(alice, 'GET', '/schedule?status=all')).json()).tasks.map((one) => one.id)).not.toContain(task.id);
    expect(await rowsOf(task.id)).toEqual({ notices: 0, completions: 0 });
    expect((await call(alice, 'DELETE', `/schedule/${'x'.repeat(65)}`)).statusCode).toBe(400);
  });

  it('takes its pending notices with it: a notice waiting for a retry is never sent', async () => {
    const owner = await user();
    smtp.setDecision(() => 'reject');
    const task = await create(owner, { name: 'Retry pending', first_schedule_time: iso(t.clock.now()) });
    expect(Task.parse((await call(owner, 'GET', `/schedule/${task.id}`)).json()).notice_error).toMatch(/attempt 1/);
    expect((await rowsOf(task.id)).notices).toBe(1);
    smtp.setDecision(() => 'accept');
    expect((await call(owner, 'DELETE', `/schedule/${task.id}`)).statusCode).toBe(204);
    expect(await rowsOf(task.id)).toEqual({ notices: 0, completions: 0 });
    await advanceTo(t.clock.now() + 3 * HOUR);
    expect(mailsFor('Retry pending')).toBe(0);
  });

  it.each([
    ['its first attempt', false],
    ['a retry after a failed attempt (the task shows the failure)', true],
  ])('lets a notice being sent go out once, not lost, not sent again: %s', async (_, failedBefore) => {
    const owner = await user();
    const name = `In flight ${failedBefore ? 'retry' : 'first'}`;
    const due = t.clock.now() + HOUR;
    const task = await create(owner, { name, first_schedule_time: iso(due), notice_hours: [0, 6, 12, 18] });
    let sendAt = due;
    if (failedBefore) {
      smtp.setDecision(() => 'reject');
      await advanceTo(due);
      expect(Task.parse((await call(owner, 'GET', `/schedule/${task.id}`)).json()).notice_error).toMatch(/attempt 1/);
      sendAt = due + MINUTE;
    }
    smtp.setDecision((mail) => (mail.subject === `Task due: ${name}` ? 'wait' : 'accept'));
    await t.settled();
    t.clock.advance(sendAt - t.clock.now());
    for (let tries = 0; smtp.waitingCount() === 0; tries++) {
      expect(tries, 'the notice reaches the SMTP server').toBeLessThan(200);
      await sleep(25);
    }

    let answered = false;
    const deleting = call(owner, 'DELETE', `/schedule/${task.id}`).then((response) => {
      answered = true;
      return response;
    });
    if (dialect === 'postgres') {
      // The sender holds its notice's row lock until the outcome is written: the delete waits for it.
      await sleep(500);
      expect(answered).toBe(false);
    } else {
      // SQLite: the delete goes through at once; the send under way records nothing when it ends.
      expect((await deleting).statusCode).toBe(204);
    }
    smtp.setDecision(() => 'accept');
    smtp.release();
    const deleted = await deleting;
    expect(deleted.statusCode, deleted.body).toBe(204);
    await t.settled();
    expect(mailsFor(name)).toBe(1);
    expect(await rowsOf(task.id)).toEqual({ notices: 0, completions: 0 });

    // A day of notice hours later, nothing more went for it.
    await advanceTo(sendAt + 24 * HOUR + MINUTE);
    expect(mailsFor(name)).toBe(1);
  });
});
