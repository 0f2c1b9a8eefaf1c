import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { Task, TaskPage } from '../../../contract/tasks.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { taskRow } from '../test/task-row.ts';
import type { TaskRow } from './tasks.store.ts';

const RANGE = 'must be between 1900-01-01 and 2200-12-31';
/** The first and last days JavaScript's dates hold. */
const EARLIEST_MS = Date.parse('-271821-04-20T00:00:00Z');
const LATEST_MS = Date.parse('+275760-09-13T00:00:00Z');
/** Far longer than any bounded computation, far shorter than stepping through the years (14–26 s). */
const QUICK_MS = 1_000;

describe.each(testDialects)('far dates on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    await t.app.ready();
    return t.close;
  });

  const owner = async (timezone: string) => {
    const { idToken, user } = await registerUser(t.app);
    const response = await t.app.inject({ method: 'PUT', url: '/api/users/me', headers: bearer(idToken), payload: { timezone } });
    expect(response.statusCode, response.body).toBe(200);
    return { token: idToken, id: user.uid };
  };
  type Owner = Awaited<ReturnType<typeof owner>>;
  const call = (owner: Owner, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(owner.token), ...(payload ? { payload } : {}) });
  const listed = async (owner: Owner) => TaskPage.parse((await call(owner, 'GET', '/schedule?pageSize=100')).json()).tasks;

  /** A task written straight into the store, as one stored before dates were bounded would be. */
  async function storedTask(owner: Owner, time: number, fields: Partial<TaskRow> = {}): Promise<TaskRow> {
    const now = t.clock.now();
    const row = taskRow(owner.id, time, { name: `Stored at ${new Date(time).toISOString()}`, create_time: now, last_updated: now, ...fields });
    await t.storage.db.insertInto('tasks').values(row).execute();
    return row;
  }

  async function timedComplete(owner: Owner, id: string) {
    const start = performance.now();
    const response = await call(owner, 'PUT', `/schedule/${id}`, { type: 'complete' });
    const elapsed = performance.now() - start;
    expect(response.statusCode, response.body).toBe(200);
    expect(elapsed).toBeLessThan(QUICK_MS);
    return Task.parse(response.json());
  }

  it('refuses a task date outside 1900–2200 in every field with a 400 that gives the range, and changes nothing', async () => {
    const alice = await owner('UTC');
    const refused = async (method: 'POST' | 'PUT', url: string, payload: object) => {
      const response = await call(alice, method, url, payload);
      expect(response.statusCode, response.body).toBe(400);
      return ErrorReply.parse(response.json()).message;
    };
    const far = ['-271821-04-20T00:00:00Z', '+275760-09-13T00:00:00Z', '1000-01-01T00:00:00Z', '1899-12-31T23:59:59.999Z', '2201-01-01T00:00:00Z', '2200-12-31T23:00:00-05:00'];
    for (const time of far) {
      expect(await refused('POST', '/schedule', { name: 'x', first_schedule_time: time }), time).toBe(`First due ${RANGE}`);
      expect(await refused('POST', '/schedule', { name: 'x', first_schedule_time: '2026-01-01T00:00Z', schedule_end_time: time }), time).toBe(
        `End time ${RANGE}`,
      );
    }
    expect(await listed(alice)).toEqual([]);

    const first = await call(alice, 'POST', '/schedule', { name: 'First', first_schedule_time: '1900-01-01T00:00:00Z' });
    expect(first.statusCode, first.body).toBe(200);
    const last = Task.parse(
      (await call(alice, 'POST', '/schedule', { name: 'Last', first_schedule_time: '2200-12-31T23:59:59.999Z', schedule_end_time: '2200-12-31T23:59:59.999Z' })).json(),
    );
    const labels = { schedule_time: 'Due time', schedule_end_time: 'End time', next_notice_time: 'Pending notice' };
    for (const [key, label] of Object.entries(labels)) {
      for (const value of ['1899-12-31T23:59:59Z', '2201-01-01T00:00:00Z']) {
        expect(await refused('PUT', `/schedule/${last.id}`, { type: 'update', key, value }), `${key}=${value}`).toBe(`${label} ${RANGE}`);
      }
    }
    expect(Task.parse((await call(alice, 'GET', `/schedule/${last.id}`)).json())).toEqual(last);
  });

  it('completes a task stored with a far date at once, on to the first occurrence after now, or inactive past the calendar', async () => {
    const utc = await owner('UTC');
    const newYork = await owner('America/New_York');
    expect(new Date(t.clock.now()).toISOString()).toBe('2026-01-05T12:00:00.000Z');

    const earliest = await storedTask(utc, EARLIEST_MS);
    expect(await timedComplete(utc, earliest.id)).toMatchObject({
      active: true,
      schedule_time: '2026-01-06T00:00:00.000Z',
      next_notice_time: '2026-01-06T00:00:00.000Z',
    });
    const monthly = await storedTask(newYork, Date.parse('1000-01-31T17:00:00Z'), { schedule_type: 'm' });
    // New York kept its local mean time (UTC-4:56:02) in the year 1000: 12:03:58, clamped to each month's end.
    expect((await timedComplete(newYork, monthly.id)).schedule_time).toBe('2026-01-31T17:03:58.000Z');

    // No occurrence after the last day JavaScript holds, and none that New York can place before its first.
    for (const [who, time] of [[utc, LATEST_MS], [newYork, EARLIEST_MS]] as const) {
      const stored = await storedTask(who, time, { schedule_type: 'y' });
      expect(await timedComplete(who, stored.id), new Date(time).toISOString()).toMatchObject({ active: false, next_notice_time: null });
    }
    expect((await listed(utc)).map((task) => task.id)).toEqual([earliest.id]);
  });

  it('notices a far-date task once and goes on from now, stops the notices of one it cannot place, and holds up no other', async () => {
    const utc = await owner('UTC');
    const newYork = await owner('America/New_York');
    const now = t.clock.now();
    const earliest = await storedTask(utc, EARLIEST_MS, { next_notice_time: EARLIEST_MS });
    const unplaceable = await storedTask(newYork, EARLIEST_MS, { next_notice_time: EARLIEST_MS });
    const ordinary = await storedTask(newYork, now - 3_600_000, { next_notice_time: now - 3_600_000 });

    const start = performance.now();
    // The scheduler looks for due work at least every minute.
    t.clock.advance(60_000);
    await t.settled();
    expect(performance.now() - start).toBeLessThan(QUICK_MS);

    const tasks = await t.storage.db.selectFrom('tasks').select(['id', 'next_notice_time']).where('id', 'in', [earliest.id, unplaceable.id, ordinary.id]).execute();
    const next = Object.fromEntries(tasks.map((task) => [task.id, task.next_notice_time === null ? null : new Date(task.next_notice_time).toISOString()]));
    expect(next).toEqual({
      [earliest.id]: '2026-01-06T00:00:00.000Z',
      [unplaceable.id]: null,
      [ordinary.id]: new Date(now - 3_600_000 + 86_400_000).toISOString(),
    });
    const notices = await t.storage.db
      .selectFrom('task_notices')
      .select(['task_id', 'due_at', 'sent_at'])
      .where('task_id', 'in', [earliest.id, unplaceable.id, ordinary.id])
      .execute();
    expect(notices.map(({ task_id, due_at, sent_at }) => ({ task_id, due_at, sent: sent_at !== null }))).toEqual(
      expect.arrayContaining([
        { task_id: earliest.id, due_at: EARLIEST_MS, sent: true },
        { task_id: ordinary.id, due_at: now - 3_600_000, sent: true },
      ]),
    );
    expect(notices).toHaveLength(2);
  });
});
