import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { Task } from '../../../contract/tasks.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

// Issue 12: a refused task call says what is wrong in people's words, with the field's label.
describe.each(testDialects)('task validation messages on %s', (dialect) => {
  let t: TestApp;
  let alice: string;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    alice = (await registerUser(t.app)).idToken;
    return t.close;
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(alice), ...(payload === undefined ? {} : { payload: payload as object }) });
  const refusal = async (method: 'POST' | 'PUT', url: string, payload: unknown) => {
    const response = await call(method, url, payload);
    expect(response.statusCode, response.body).toBe(400);
    return ErrorReply.parse(response.json()).message;
  };
  const create = async (body: Record<string, unknown>) => {
    const response = await call('POST', '/schedule/', body);
    expect(response.statusCode, response.body).toBe(200);
    return Task.parse(response.json());
  };

  it.each([
    [{ name: '  ', first_schedule_time: '2026-05-01T09:00Z' }, 'Name is required'],
    [{ first_schedule_time: '2026-05-01T09:00Z' }, 'Name is required'],
    [{ name: 7, first_schedule_time: '2026-05-01T09:00Z' }, 'Name must be text'],
    [{ name: 'Plants' }, 'First due is required'],
    [{ name: 'Plants', first_schedule_time: '2026-05-01T09:00Z', notice_hours: [9, 24] }, 'Notice hours are whole hours from 0 to 23'],
    [{ name: 'Plants', first_schedule_time: '2026-05-01T09:00Z', emails: ['ada'] }, 'Enter e-mail addresses like ada@example.org'],
    [{ name: 'Plants', first_schedule_time: '2026-05-01T09:00Z', schedule_end_time: '2026-04-30T09:00Z' }, 'End time must not be before the first due time'],
    [{ name: '', first_schedule_time: 'soon' }, 'Name is required; First due must be an existing ISO date-time such as 2026-03-08T09:00:00Z'],
  ])('refuses the create %j with "%s" and stores nothing', async (body, expected) => {
    expect(await refusal('POST', '/schedule/', body)).toBe(expected);
    const listed = await call('GET', '/schedule?status=all&pageSize=100');
    expect(listed.json()).toMatchObject({ tasks: [] });
  });

  it('accepts an end equal to the first due time: a series of one', async () => {
    const task = await create({ name: 'Once', first_schedule_time: '2026-05-01T09:00Z', schedule_end_time: '2026-05-01T09:00Z' });
    expect(task.schedule_end_time).toBe('2026-05-01T09:00:00.000Z');
    const { tasks } = (await call('GET', '/schedule?status=all&pageSize=100')).json() as { tasks: Task[] };
    await Promise.all(tasks.map((listed) => t.app.inject({ method: 'DELETE', url: `/schedule/${listed.id}`, headers: bearer(alice) })));
  });

  it('names the field an update changes, and refuses an end before the due time or a due time after the end', async () => {
    const task = await create({ name: 'Rent', first_schedule_time: '2026-05-01T09:00Z', schedule_end_time: '2026-12-01T09:00Z' });
    const url = `/schedule/${task.id}`;
    const refusals: Array<[string, unknown, string]> = [
      ['name', '', 'Name is required'],
      ['notice_hours', [7, 23.5], 'Notice hours are whole hours from 0 to 23'],
      ['emails', ['ada@example.org', 'bob at example.org'], 'Enter e-mail addresses like ada@example.org'],
      ['emails', 'ada@example.org', 'Recipients must be a list'],
      ['schedule_time', '', 'Due time must be an existing ISO date-time such as 2026-03-08T09:00:00Z'],
      ['schedule_time', null, 'Due time is required'],
      ['schedule_type', 'hourly', 'Repeats must be one of o, y, q, m, b, w, d, c'],
      ['overdue_notice', 'yes', 'Overdue notice must be true or false'],
      ['schedule_end_time', '2026-04-30T09:00Z', 'End time must not be before the due time'],
      ['schedule_time', '2026-12-02T09:00Z', 'Due time must not be after the end time'],
    ];
    for (const [key, value, expected] of refusals) {
      expect(await refusal('PUT', url, { type: 'update', key, value }), `${key}=${JSON.stringify(value)}`).toBe(expected);
    }
    expect(Task.parse((await call('GET', url)).json())).toEqual(task);

    const ending = await call('PUT', url, { type: 'update', key: 'schedule_end_time', value: '2026-05-01T09:00Z' });
    expect(ending.statusCode, ending.body).toBe(200);
    const moved = await call('PUT', url, { type: 'update', key: 'schedule_time', value: '2026-04-01T09:00Z' });
    expect(moved.statusCode, moved.body).toBe(200);
  });
});
