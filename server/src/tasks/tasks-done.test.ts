import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { DonePage, NO_MORE_RESULTS, Task, TaskCompletion, TaskPage } from '../../../contract/tasks.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testDialects)('done tasks and completion history on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    return t.close;
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown, headers = {}) =>
    t.app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (token: string, body: Record<string, unknown>) => {
    const response = await call('POST', '/schedule', token, body);
    expect(response.statusCode, response.body).toBe(200);
    return Task.parse(response.json());
  };
  const complete = async (token: string, id: string) => {
    const response = await call('PUT', `/schedule/${id}`, token, { type: 'complete' });
    expect(response.statusCode, response.body).toBe(200);
    return Task.parse(response.json());
  };
  /** Every task of the list with this status, page by page. */
  const listAll = async (token: string, status?: string) => {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const query = status ? `?status=${status}&pageSize=2` : '?pageSize=2';
      const response = await call('GET', `/schedule${query}`, token, undefined, cursor ? { pageCursor: cursor } : {});
      expect(response.statusCode, response.body).toBe(200);
      const page = TaskPage.parse(response.json());
      names.push(...page.tasks.map((task) => task.name));
      cursor = page.cursor === NO_MORE_RESULTS ? undefined : page.cursor;
    } while (cursor);
    return names;
  };
  const history = async (token: string, id: string) => {
    const response = await call('GET', `/schedule/${id}/completions`, token);
    expect(response.statusCode, response.body).toBe(200);
    return TaskCompletion.array().parse(response.json());
  };

  it('lists active tasks by default, done ones latest due first under done, and every one under all', async () => {
    const { idToken: carol } = await registerUser(t.app);
    const base = Date.UTC(2026, 5, 1, 9);
    const endedAt = async (name: string, days: number) => {
      const task = await create(carol, { name, first_schedule_time: iso(base + days * DAY), schedule_end_time: iso(base + days * DAY) });
      expect((await complete(carol, task.id)).active).toBe(false);
    };
    await create(carol, { name: 'Active in 3', first_schedule_time: iso(base + 3 * DAY) });
    await endedAt('Ended on 1', 1);
    await create(carol, { name: 'Active in 0', first_schedule_time: iso(base) });
    await endedAt('Ended on 5', 5);
    await endedAt('Ended on 2', 2);

    expect(await listAll(carol)).toEqual(['Active in 0', 'Active in 3']);
    expect(await listAll(carol, 'active')).toEqual(['Active in 0', 'Active in 3']);
    expect(await listAll(carol, 'done')).toEqual(['Ended on 5', 'Ended on 2', 'Ended on 1']);
    expect(await listAll(carol, 'all')).toEqual(['Active in 0', 'Ended on 1', 'Ended on 2', 'Active in 3', 'Ended on 5']);
    const refused = await call('GET', '/schedule?status=finished', carol);
    expect(refused.statusCode).toBe(400);
    expect(ErrorReply.parse(refused.json()).message).toBe('querystring status: must be one of active, done, all');
  });

  it('records each Complete with its occurrence and time, newest first, and shows it only to the owner', async () => {
    const { idToken: dana } = await registerUser(t.app);
    const { idToken: eve } = await registerUser(t.app);
    // Completed ahead of time, a second apart: each Complete moves on to the next week's occurrence.
    const first = t.clock.now() + DAY;
    const task = await create(dana, { name: 'Weekly review', first_schedule_time: iso(first), schedule_type: 'w', schedule_end_time: iso(first + 14 * DAY) });
    expect(await history(dana, task.id)).toEqual([]);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      times.push(t.clock.now());
      await complete(dana, task.id);
    }
    expect((await call('GET', `/schedule/${task.id}`, dana)).json()).toMatchObject({ active: false });
    expect(await history(dana, task.id)).toEqual([
      { occurrence: 2, due_time: iso(first + 14 * DAY), completed_at: iso(times[2]!), checklist: [] },
      { occurrence: 1, due_time: iso(first + 7 * DAY), completed_at: iso(times[1]!), checklist: [] },
      { occurrence: 0, due_time: iso(first), completed_at: iso(times[0]!), checklist: [] },
    ]);

    const theirs = await call('GET', `/schedule/${task.id}/completions`, eve);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual((await call('GET', '/schedule/no-such-task/completions', eve)).json());
    // A refused Complete (the task is done) records nothing.
    expect((await call('PUT', `/schedule/${task.id}`, dana, { type: 'complete' })).statusCode).toBe(409);
    expect(await history(dana, task.id)).toHaveLength(3);
  });

  /** The Done list, page by page: each entry as "name @ due time". */
  const doneList = async (token: string) => {
    const entries: string[] = [];
    let cursor: string | undefined;
    do {
      const response = await call('GET', '/schedule/completions?pageSize=2', token, undefined, cursor ? { pageCursor: cursor } : {});
      expect(response.statusCode, response.body).toBe(200);
      const page = DonePage.parse(response.json());
      entries.push(...page.done.map((entry) => `${entry.name} @ ${entry.due_time}`));
      cursor = page.cursor === NO_MORE_RESULTS ? undefined : page.cursor;
    } while (cursor);
    return entries;
  };

  it('completes a one-off task once: it is done, its history has the one Complete, and it is under Done', async () => {
    const { idToken: gil } = await registerUser(t.app);
    const due = t.clock.now() + DAY;
    const once = await create(gil, { name: 'Renew the passport', first_schedule_time: iso(due), schedule_type: 'o', schedule_end_time: null });
    expect(once).toMatchObject({ schedule_type: 'o', active: true, next_notice_time: iso(due) });
    // The create call's default is still a daily task.
    expect((await create(gil, { name: 'Daily', first_schedule_time: iso(due + 1000) })).schedule_type).toBe('d');
    expect(await listAll(gil)).toEqual(['Renew the passport', 'Daily']);

    t.clock.advance(1000);
    const completedAt = t.clock.now();
    expect(await complete(gil, once.id)).toMatchObject({ active: false, schedule_time: iso(due), next_notice_time: null });
    expect(await history(gil, once.id)).toEqual([{ occurrence: 0, due_time: iso(due), completed_at: iso(completedAt), checklist: [] }]);
    expect(await listAll(gil)).toEqual(['Daily']);
    expect(await listAll(gil, 'done')).toEqual(['Renew the passport']);
    const again = await call('PUT', `/schedule/${once.id}`, gil, { type: 'complete' });
    expect(again.statusCode).toBe(409);
    expect(await history(gil, once.id)).toHaveLength(1);

    // Turned into a weekly task, a one-off steps on from its due time; and back, it stops there.
    const weekly = await create(gil, { name: 'Was once', first_schedule_time: iso(due), schedule_type: 'o' });
    const changed = await call('PUT', `/schedule/${weekly.id}`, gil, { type: 'update', key: 'schedule_type', value: 'w' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await complete(gil, weekly.id)).toMatchObject({ active: true, schedule_time: iso(due + 7 * DAY) });
    expect((await call('PUT', `/schedule/${weekly.id}`, gil, { type: 'update', key: 'schedule_type', value: 'o' })).statusCode).toBe(200);
    expect(await complete(gil, weekly.id)).toMatchObject({ active: false, schedule_time: iso(due + 7 * DAY) });
  });

  it('lists under Done every occurrence completed, the latest first, and only the owner\'s', async () => {
    const { idToken: hal } = await registerUser(t.app);
    const { idToken: ida } = await registerUser(t.app);
    const due = t.clock.now() + DAY;
    const daily = await create(hal, { name: 'Feed the cat', first_schedule_time: iso(due) });
    const once = await create(hal, { name: 'Book the dentist', first_schedule_time: iso(due), schedule_type: 'o' });
    await create(ida, { name: 'Not hal\'s', first_schedule_time: iso(due), schedule_type: 'o' }).then((task) => complete(ida, task.id));
    for (const id of [daily.id, once.id, daily.id]) {
      t.clock.advance(1000);
      await complete(hal, id);
    }
    expect(await doneList(hal)).toEqual([
      `Feed the cat @ ${iso(due + DAY)}`,
      `Book the dentist @ ${iso(due)}`,
      `Feed the cat @ ${iso(due)}`,
    ]);
    const [latest] = DonePage.parse((await call('GET', '/schedule/completions', hal)).json()).done;
    expect(latest).toMatchObject({ task_id: daily.id, schedule_type: 'd', occurrence: 1 });
    expect(await doneList(ida)).toEqual([`Not hal's @ ${iso(due)}`]);

    const forged = await call('GET', '/schedule/completions', hal, undefined, { pageCursor: Buffer.from('["x",1]').toString('base64url') });
    expect(forged.statusCode).toBe(400);
    expect(ErrorReply.parse(forged.json()).message).toBe('pageCursor: is not a cursor of this list');
    // Deleted with its task, its completions leave the list.
    expect((await call('DELETE', `/schedule/${daily.id}`, hal)).statusCode).toBe(204);
    expect(await doneList(hal)).toEqual([`Book the dentist @ ${iso(due)}`]);
  });

  it('records two Completes sent at once each under the occurrence it completed, never one twice', async () => {
    const { idToken: finn } = await registerUser(t.app);
    const task = await create(finn, { name: 'Once a day', first_schedule_time: iso(t.clock.now() + DAY) });
    const [a, b] = await Promise.all([
      call('PUT', `/schedule/${task.id}`, finn, { type: 'complete' }),
      call('PUT', `/schedule/${task.id}`, finn, { type: 'complete' }),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    // Both may win when the second read the task after the first wrote it: then each completed its own occurrence.
    const entries = await history(finn, task.id);
    expect(entries).toHaveLength(statuses.filter((status) => status === 200).length);
    expect(new Set(entries.map((entry) => entry.due_time)).size).toBe(entries.length);
    for (const status of statuses) expect([200, 409]).toContain(status);
  });
});
