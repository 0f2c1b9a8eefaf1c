import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { NO_MORE_RESULTS, Task, TaskPage } from '../../../contract/tasks.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const DAY = 86_400_000;

describe.each(testDialects)('task gateway on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    alice = (await registerUser(t.app)).idToken;
    bob = (await registerUser(t.app)).idToken;
    return t.close;
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown, headers = {}) =>
    t.app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (body: Record<string, unknown>, token = alice) => {
    const response = await call('POST', '/schedule/', token, body);
    expect(response.statusCode, response.body).toBe(200);
    return Task.parse(response.json());
  };
  const act = async (id: string, body: Record<string, unknown>, token = alice) => {
    const response = await call('PUT', `/schedule/${id}`, token, body);
    expect(response.statusCode, response.body).toBe(200);
    return Task.parse(response.json());
  };
  const update = (id: string, key: string, value: unknown) => act(id, { type: 'update', key, value });
  const refused = async (method: 'POST' | 'PUT' | 'GET', url: string, body: unknown, status = 400, token = alice) => {
    const response = await call(method, url, token, body);
    expect(response.statusCode, response.body).toBe(status);
    return ErrorReply.parse(response.json()).message;
  };
  const setZone = (token: string, timezone: string) => call('PUT', '/api/users/me', token, { timezone });

  it('creates a daily task from a name and a first time, read as UTC without a zone suffix', async () => {
    const task = await create({ name: '  Water the plants ', first_schedule_time: '2026-02-01T08:30' });
    expect(task).toMatchObject({
      name: 'Water the plants',
      active: true,
      schedule_type: 'd',
      first_schedule_time: '2026-02-01T08:30:00.000Z',
      schedule_time: '2026-02-01T08:30:00.000Z',
      next_notice_time: '2026-02-01T08:30:00.000Z',
      schedule_end_time: null,
      emails: [],
      notice_hours: [],
      overdue_notice: true,
      notice_in_workday: false,
      comment: '',
      notice_error: null,
    });
    expect(task.create_time).toBe(new Date(t.clock.now()).toISOString());
    const offset = await create({ name: 'Offset', first_schedule_time: '2026-02-01T08:30:00-05:00' });
    expect(offset.schedule_time).toBe('2026-02-01T13:30:00.000Z');
    expect(await call('GET', `/schedule/${task.id}`, alice).then((r) => r.json())).toEqual(task);
  });

  it('refuses a bad task with a 400 that names the field, and creates nothing', async () => {
    const before = TaskPage.parse((await call('GET', '/schedule?pageSize=100', alice)).json()).tasks.length;
    expect(await refused('POST', '/schedule', { first_schedule_time: '2026-02-01T08:30Z' })).toBe('Name is required');
    expect(await refused('POST', '/schedule', { name: ' ', first_schedule_time: '2026-02-01T08:30Z' })).toBe('Name is required');
    expect(await refused('POST', '/schedule', { name: 'x' })).toBe('First due is required');
    expect(await refused('POST', '/schedule', { name: 'x', first_schedule_time: '2026-02-30T08:30Z' })).toMatch(/^First due must be an existing/);
    expect(await refused('POST', '/schedule', { name: 'x', first_schedule_time: '2026-02-01' })).toMatch(/^First due must be an existing ISO date-time/);
    expect(await refused('POST', '/schedule', { name: 'x', first_schedule_time: '2026-02-01T08:30Z', owner: 'b' })).toMatch(/owner/);
    expect(await refused('POST', '/schedule', { name: 'x'.repeat(201), first_schedule_time: '2026-02-01T08:30Z' })).toBe('Name must be at most 200 characters');
    expect(await refused('POST', '/schedule', { name: 'x', first_schedule_time: '2026-02-01T08:30Z', schedule_type: 'h' })).toBe('Repeats must be one of o, y, q, m, b, w, d, c');
    const malformed = await t.app.inject({ method: 'POST', url: '/schedule', headers: { ...bearer(alice), 'content-type': 'application/json' }, payload: '{"name":' });
    expect(malformed.statusCode).toBe(400);
    expect(TaskPage.parse((await call('GET', '/schedule?pageSize=100', alice)).json()).tasks).toHaveLength(before);
  });

  it('needs a bearer token', async () => {
    expect((await t.app.inject({ url: '/schedule' })).statusCode).toBe(401);
  });

  it('answers 404 for another user\'s task exactly as for an unknown id, and changes nothing', async () => {
    const task = await create({ name: 'Private', first_schedule_time: '2026-03-01T10:00Z' });
    const theirs = await call('GET', `/schedule/${task.id}`, bob);
    const unknown = await call('GET', '/schedule/no-such-task', bob);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(unknown.json());
    expect(await refused('PUT', `/schedule/${task.id}`, { type: 'update', key: 'name', value: 'Mine now' }, 404, bob)).toBe('Task not found');
    expect(await refused('PUT', `/schedule/${task.id}`, { type: 'complete' }, 404, bob)).toBe('Task not found');
    expect((await call('GET', `/schedule/${task.id}`, alice)).json()).toEqual(task);
  });

  it('lists active tasks soonest due first, page by page with the pageCursor header', async () => {
    const { idToken: carol } = await registerUser(t.app);
    const base = Date.UTC(2026, 5, 1, 9);
    // Created out of order, two due at the same time, one inactive.
    const due = [5, 1, 3, 3, 0, 8, 2, 7, 6, 4, 9, 10];
    const created = [];
    for (const [i, days] of due.entries()) {
      created.push(await create({ name: `Task ${i}`, first_schedule_time: new Date(base + days * DAY).toISOString() }, carol));
    }
    await create({ name: 'Someone else', first_schedule_time: new Date(base).toISOString() }, bob);
    const ended = await create(
      { name: 'Ended', first_schedule_time: new Date(base).toISOString(), schedule_end_time: new Date(base).toISOString() },
      carol,
    );
    await act(ended.id, { type: 'complete' }, carol);

    const seen: string[] = [];
    let cursor: string | undefined;
    const pages = [];
    do {
      const response = await call('GET', '/schedule?pageSize=5', carol, undefined, cursor ? { pageCursor: cursor } : {});
      expect(response.statusCode, response.body).toBe(200);
      const page = TaskPage.parse(response.json());
      pages.push(page);
      seen.push(...page.tasks.map((task) => task.id));
      cursor = page.cursor === NO_MORE_RESULTS ? undefined : page.cursor;
    } while (cursor);
    expect(pages.map((page) => page.tasks.length)).toEqual([5, 5, 2]);
    expect(pages.map((page) => page.queryInfo.moreResults)).toEqual(['MORE_RESULTS_AFTER_LIMIT', 'MORE_RESULTS_AFTER_LIMIT', 'NO_MORE_RESULTS']);
    expect(pages[0]!.cursor).toBe(pages[0]!.queryInfo.endCursor);
    const expected = [...created].sort((a, b) => a.schedule_time.localeCompare(b.schedule_time) || a.id.localeCompare(b.id));
    expect(seen).toEqual(expected.map((task) => task.id));

    const defaultPage = TaskPage.parse((await call('GET', '/schedule', carol)).json());
    expect(defaultPage.tasks).toHaveLength(5);
    expect(await refused('GET', '/schedule?pageSize=0', undefined, 400, carol)).toBe('Page size must be at least 1');
    const badCursor = await call('GET', '/schedule', carol, undefined, { pageCursor: 'not-a-cursor' });
    expect(badCursor.statusCode).toBe(400);
    expect(ErrorReply.parse(badCursor.json()).message).toMatch(/pageCursor/);
  });

  it('updates each editable field, validated per field', async () => {
    const task = await create({ name: 'Edit me', first_schedule_time: '2026-04-01T09:00Z' });
    t.clock.advance(60_000);
    const renamed = await update(task.id, 'name', 'Edited');
    expect(renamed.name).toBe('Edited');
    expect(renamed.last_updated).toBe(new Date(t.clock.now()).toISOString());
    expect((await update(task.id, 'comment', 'Bring the <b>key</b>')).comment).toBe('Bring the <b>key</b>');
    expect((await update(task.id, 'emails', ['a@example.org', 'b@example.org'])).emails).toEqual(['a@example.org', 'b@example.org']);
    expect((await update(task.id, 'notice_hours', [17, 9, 9])).notice_hours).toEqual([9, 17]);
    expect((await update(task.id, 'schedule_end_time', '2026-12-31T23:00:00+01:00')).schedule_end_time).toBe('2026-12-31T22:00:00.000Z');
    expect((await update(task.id, 'schedule_end_time', null)).schedule_end_time).toBeNull();
    expect((await update(task.id, 'schedule_type', 'w')).schedule_type).toBe('w');
    expect((await update(task.id, 'overdue_notice', false)).overdue_notice).toBe(false);
    expect((await update(task.id, 'notice_in_workday', true)).notice_in_workday).toBe(true);

    const moved = await update(task.id, 'schedule_time', '2026-05-02T07:00Z');
    expect(moved).toMatchObject({ schedule_time: '2026-05-02T07:00:00.000Z', first_schedule_time: '2026-04-01T09:00:00.000Z' });
    // May 2 is a Saturday: a workday task's first notice waits for Monday.
    expect(moved.next_notice_time).toBe('2026-05-04T07:00:00.000Z');
    const snoozed = await update(task.id, 'next_notice_time', '2026-05-05T12:00Z');
    expect(snoozed.next_notice_time).toBe('2026-05-05T12:00:00.000Z');
    // An edit that does not touch the schedule keeps the snooze.
    expect((await update(task.id, 'name', 'Still snoozed')).next_notice_time).toBe('2026-05-05T12:00:00.000Z');

    const url = `/schedule/${task.id}`;
    const rejects: Array<[string, unknown, RegExp]> = [
      ['emails', ['not an address'], /^Enter e-mail addresses like ada@example\.org$/],
      ['emails', 'a@example.org', /^Recipients must be a list$/],
      ['notice_hours', [9.5], /^Notice hours are whole hours from 0 to 23$/],
      ['notice_hours', [24], /^Notice hours are whole hours from 0 to 23$/],
      ['notice_hours', ['9'], /^Notice hours are whole hours from 0 to 23$/],
      ['schedule_type', 'x', /^Repeats must be one of o, y, q, m, b, w, d, c$/],
      ['schedule_time', '2026-13-01T00:00Z', /^Due time must be an existing ISO date-time/],
      ['schedule_time', null, /^Due time is required$/],
      ['name', '', /^Name is required$/],
      ['comment', 'c'.repeat(10_001), /^Comment must be at most 10000 characters$/],
      ['owner_id', 'b', /^key: must be one of/],
      ['active', false, /^key: must be one of/],
    ];
    for (const [key, value, message] of rejects) {
      expect(await refused('PUT', url, { type: 'update', key, value }), `${key}=${JSON.stringify(value)}`).toMatch(message);
    }
    expect(await refused('PUT', url, { type: 'delete' })).toMatch(/type/);
    expect(await refused('PUT', url, { type: 'update', key: 'name', value: 'x', extra: 1 })).toMatch(/extra/);
    expect(Task.parse((await call('GET', url, alice)).json())).toMatchObject({ name: 'Still snoozed', next_notice_time: '2026-05-05T12:00:00.000Z' });
  });

  it('completes to the first occurrence later than both the completed one and now, in the owner\'s zone', async () => {
    const { idToken: dora } = await registerUser(t.app);
    expect((await setZone(dora, 'America/New_York')).statusCode).toBe(200);
    // Jan 31 09:00 in New York, monthly.
    const task = await create({ name: 'Rent', first_schedule_time: '2026-01-31T09:00:00-05:00', schedule_type: 'm' }, dora);
    const february = await act(task.id, { type: 'complete' }, dora);
    expect(february.schedule_time).toBe('2026-02-28T14:00:00.000Z');
    expect(february.next_notice_time).toBe('2026-02-28T14:00:00.000Z');
    // March 31 09:00 is EDT by then: 13:00 UTC.
    const march = await act(task.id, { type: 'complete' }, dora);
    expect(march.schedule_time).toBe('2026-03-31T13:00:00.000Z');

    const daily = await create({ name: 'Daily', first_schedule_time: new Date(t.clock.now() - 3 * DAY).toISOString() }, dora);
    const next = await act(daily.id, { type: 'complete' }, dora);
    expect(next.schedule_time).toBe(new Date(t.clock.now() + DAY).toISOString());
  });

  it('goes inactive when complete would pass schedule_end_time, and leaves the list', async () => {
    const { idToken: erin } = await registerUser(t.app);
    const task = await create({
      name: 'Course',
      first_schedule_time: '2026-06-01T18:00Z',
      schedule_type: 'w',
      schedule_end_time: '2026-06-10T00:00Z',
    }, erin);
    expect((await act(task.id, { type: 'complete' }, erin)).schedule_time).toBe('2026-06-08T18:00:00.000Z');
    const done = await act(task.id, { type: 'complete' }, erin);
    expect(done).toMatchObject({ active: false, next_notice_time: null });
    expect(TaskPage.parse((await call('GET', '/schedule', erin)).json()).tasks).toEqual([]);
    expect(await refused('PUT', `/schedule/${task.id}`, { type: 'complete' }, 409, erin)).toBe('The task is not active');
  });
});
