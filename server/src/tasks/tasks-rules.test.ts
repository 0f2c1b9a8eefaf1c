import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { Task, TaskCompletion, TaskPage } from '../../../contract/tasks.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const BERLIN = 'Europe/Berlin';
const utc = (local: string) => DateTime.fromISO(local, { zone: BERLIN }).toUTC().toISO();

describe.each(testDialects)('repeat rules and checklists on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    return t.close;
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) => {
    const response = await call(method, url, token, payload);
    expect(response.statusCode, response.body).toBe(200);
    return Task.parse(response.json());
  };
  const refused = async (method: 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload: unknown, status = 400) => {
    const response = await call(method, url, token, payload);
    expect(response.statusCode, response.body).toBe(status);
    return ErrorReply.parse(response.json()).message;
  };
  const owner = async () => {
    const { idToken } = await registerUser(t.app);
    expect((await call('PUT', '/api/users/me', idToken, { timezone: BERLIN })).statusCode).toBe(200);
    return idToken;
  };
  const complete = (token: string, id: string) => ok('PUT', `/schedule/${id}`, token, { type: 'complete' });
  const update = (token: string, id: string, key: string, value: unknown) => ok('PUT', `/schedule/${id}`, token, { type: 'update', key, value });
  const count = async (token: string) => TaskPage.parse((await call('GET', '/schedule?status=all&pageSize=100', token)).json()).tasks.length;

  it('creates a task with a rule: due on the first day the rule gives, and Complete follows the rule', async () => {
    const token = await owner();
    // A Wednesday: the rule's first day is the Thursday after.
    const start = utc('2026-01-07T09:00');
    const task = await ok('POST', '/schedule', token, { name: 'Bins', first_schedule_time: start, rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH' });
    expect(task).toMatchObject({ schedule_type: 'c', rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH', repeat_from: 'due', schedule_time: utc('2026-01-08T09:00') });
    const due: string[] = [];
    for (let n = 0; n < 3; n += 1) due.push((await complete(token, task.id)).schedule_time);
    expect(due).toEqual([utc('2026-01-19T09:00'), utc('2026-01-22T09:00'), utc('2026-02-02T09:00')]);
  });

  it('gives the six codes their rule, reads a rule that says a code as that code, and a one-off task has none', async () => {
    const token = await owner();
    const monthEnd = await ok('POST', '/schedule', token, { name: 'Rent', first_schedule_time: utc('2026-01-31T10:00'), schedule_type: 'm' });
    expect(monthEnd).toMatchObject({ schedule_type: 'm', rrule: 'FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1' });
    expect((await complete(token, monthEnd.id)).schedule_time).toBe(utc('2026-02-28T10:00'));
    const daily = await ok('POST', '/schedule', token, { name: 'Walk', first_schedule_time: utc('2026-01-08T07:00'), rrule: 'RRULE:FREQ=DAILY' });
    expect(daily).toMatchObject({ schedule_type: 'd', rrule: 'FREQ=DAILY' });
    const once = await ok('POST', '/schedule', token, { name: 'Once', first_schedule_time: utc('2026-01-08T07:00'), schedule_type: 'o' });
    expect(once.rrule).toBeNull();
  });

  it('ends a counted rule after its last occurrence', async () => {
    const token = await owner();
    const task = await ok('POST', '/schedule', token, { name: 'Two', first_schedule_time: utc('2026-01-01T09:00'), rrule: 'FREQ=MONTHLY;BYDAY=2TU;COUNT=2' });
    expect(task.schedule_time).toBe(utc('2026-01-13T09:00'));
    expect((await complete(token, task.id)).schedule_time).toBe(utc('2026-02-10T09:00'));
    expect((await complete(token, task.id)).active).toBe(false);
  });

  it('repeats from when it was done: the next occurrence is the rule\'s first after that day, at the task\'s time', async () => {
    const token = await owner();
    const today = DateTime.fromMillis(t.clock.now(), { zone: BERLIN }).set({ hour: 18, minute: 0, second: 0, millisecond: 0 });
    // Due two days ago and done today: three days from today, where from the due date it would be tomorrow.
    const first = today.minus({ days: 2 });
    const body = { name: 'Water the plants', first_schedule_time: first.toUTC().toISO(), rrule: 'FREQ=DAILY;INTERVAL=3' };
    const fromDone = await ok('POST', '/schedule', token, { ...body, repeat_from: 'done' });
    const fromDue = await ok('POST', '/schedule', token, body);
    expect(fromDone).toMatchObject({ schedule_type: 'c', repeat_from: 'done' });
    expect((await complete(token, fromDone.id)).schedule_time).toBe(today.plus({ days: 3 }).toUTC().toISO());
    expect((await complete(token, fromDue.id)).schedule_time).toBe(today.plus({ days: 1 }).toUTC().toISO());
    const history = TaskCompletion.array().parse((await call('GET', `/schedule/${fromDone.id}/completions`, token)).json());
    expect(history[0]?.due_time).toBe(first.toUTC().toISO());
  });

  it('refuses a bad rule with a 400 that says why, and creates or changes nothing', async () => {
    const token = await owner();
    const body = { name: 'x', first_schedule_time: utc('2026-01-07T09:00') };
    expect(await refused('POST', '/schedule', token, { ...body, rrule: 'FREQ=HOURLY' })).toBe('Repeat rule FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY');
    expect(await refused('POST', '/schedule', token, { ...body, rrule: 'FREQ=MINUTELY' })).toMatch(/FREQ must be/);
    expect(await refused('POST', '/schedule', token, { ...body, rrule: 'FREQ=WEEKLY;BYDAY=XX' })).toMatch(/BYDAY must be weekdays/);
    expect(await refused('POST', '/schedule', token, { ...body, rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' })).toBe('Repeat rule never occurs');
    expect(await refused('POST', '/schedule', token, { ...body, rrule: 'FREQ=DAILY;COUNT=3', repeat_from: 'done' })).toMatch(/COUNT/);
    expect(await refused('POST', '/schedule', token, { ...body, schedule_type: 'c' })).toMatch(/custom schedule is set by its repeat rule/);
    expect(await refused('POST', '/schedule', token, { ...body, repeat_from: 'later' })).toMatch(/Repeat from must be due or done/);
    expect(await count(token)).toBe(0);
    const task = await ok('POST', '/schedule', token, body);
    expect(await refused('PUT', `/schedule/${task.id}`, token, { type: 'update', key: 'rrule', value: 'FREQ=SECONDLY' })).toMatch(/FREQ must be/);
    expect(await refused('PUT', `/schedule/${task.id}`, token, { type: 'update', key: 'schedule_type', value: 'c' })).toMatch(/repeat rule/);
    const { rrule, schedule_type, schedule_time, last_updated } = task;
    expect(await ok('GET', `/schedule/${task.id}`, token)).toMatchObject({ rrule, schedule_type, schedule_time, last_updated });
  });

  it('changes the rule of a task: later occurrences follow it from the current due time; none makes it one-off', async () => {
    const token = await owner();
    const task = await ok('POST', '/schedule', token, { name: 'Accounts', first_schedule_time: utc('2026-01-31T09:00') });
    const monthly = await update(token, task.id, 'rrule', 'FREQ=MONTHLY;BYMONTHDAY=-1');
    expect(monthly).toMatchObject({ schedule_type: 'c', rrule: 'FREQ=MONTHLY;BYMONTHDAY=-1', schedule_time: utc('2026-01-31T09:00') });
    expect(await update(token, task.id, 'schedule_type', 'c')).toMatchObject({ schedule_type: 'c', rrule: 'FREQ=MONTHLY;BYMONTHDAY=-1' });
    expect((await complete(token, task.id)).schedule_time).toBe(utc('2026-02-28T09:00'));
    expect(await update(token, task.id, 'repeat_from', 'done')).toMatchObject({ repeat_from: 'done' });
    expect(await update(token, task.id, 'rrule', null)).toMatchObject({ schedule_type: 'o', rrule: null });
    expect(await update(token, task.id, 'schedule_type', 'w')).toMatchObject({ schedule_type: 'w', rrule: 'FREQ=WEEKLY' });
  });

  it('keeps a checklist: add, edit, tick, remove; only its owner sees it', async () => {
    const token = await owner();
    const other = await owner();
    const task = await ok('POST', '/schedule', token, { name: 'Clean', first_schedule_time: utc('2026-01-08T09:00') });
    expect(task.checklist).toEqual([]);
    const one = await ok('POST', `/schedule/${task.id}/checklist`, token, { text: ' Kitchen ' });
    const two = await ok('POST', `/schedule/${task.id}/checklist`, token, { text: 'Bathroom' });
    expect(two.checklist.map((item) => [item.text, item.done])).toEqual([['Kitchen', false], ['Bathroom', false]]);
    const [kitchen, bathroom] = two.checklist;
    expect(one.checklist[0]?.id).toBe(kitchen!.id);
    const ticked = await ok('PUT', `/schedule/${task.id}/checklist/${kitchen!.id}`, token, { done: true });
    expect(ticked.checklist[0]).toEqual({ ...kitchen, done: true });
    const renamed = await ok('PUT', `/schedule/${task.id}/checklist/${bathroom!.id}`, token, { text: 'Bath' });
    expect(renamed.checklist[1]).toEqual({ ...bathroom, text: 'Bath' });
    expect((await ok('DELETE', `/schedule/${task.id}/checklist/${bathroom!.id}`, token)).checklist).toEqual([{ ...kitchen, done: true }]);

    expect(await refused('POST', `/schedule/${task.id}/checklist`, token, { text: '  ' })).toBe('Text is required');
    expect(await refused('PUT', `/schedule/${task.id}/checklist/${kitchen!.id}`, token, {})).toBe('Give text or done');
    expect(await refused('PUT', `/schedule/${task.id}/checklist/nope`, token, { done: true }, 404)).toBe('Checklist item not found');
    expect(await refused('POST', `/schedule/${task.id}/checklist`, other, { text: 'Mine' }, 404)).toBe('Task not found');
    expect(await refused('PUT', `/schedule/${task.id}/checklist/${kitchen!.id}`, other, { done: false }, 404)).toBe('Task not found');
    expect(await refused('DELETE', `/schedule/${task.id}/checklist/${kitchen!.id}`, other, undefined, 404)).toBe('Task not found');
    expect((await ok('GET', `/schedule/${task.id}`, token)).checklist).toEqual([{ ...kitchen, done: true }]);
  });

  it('unticks the checklist at each new occurrence and keeps its state at completion in the history', async () => {
    const token = await owner();
    const task = await ok('POST', '/schedule', token, { name: 'Weekly clean', first_schedule_time: utc('2026-01-08T09:00'), schedule_type: 'w' });
    const listed = await ok('POST', `/schedule/${task.id}/checklist`, token, { text: 'Floors' });
    await ok('POST', `/schedule/${task.id}/checklist`, token, { text: 'Windows' });
    await ok('PUT', `/schedule/${task.id}/checklist/${listed.checklist[0]!.id}`, token, { done: true });
    const next = await complete(token, task.id);
    expect(next.checklist.map((item) => item.done)).toEqual([false, false]);
    const history = TaskCompletion.array().parse((await call('GET', `/schedule/${task.id}/completions`, token)).json());
    expect(history[0]?.checklist?.map((item) => [item.text, item.done])).toEqual([['Floors', true], ['Windows', false]]);
  });
});
