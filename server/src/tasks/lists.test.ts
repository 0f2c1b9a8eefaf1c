import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarSubscription } from '../../../contract/calendar.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { TaskList, TaskLists } from '../../../contract/task-lists.ts';
import { DonePage, Task, TaskCompletion, TaskPage } from '../../../contract/tasks.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

type Person = Awaited<ReturnType<typeof registerUser>>;
const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 24 * 3_600_000;

describe.each(testDialects)('household task lists on %s', (dialect) => {
  let t: TestApp;
  let olive: Person;
  let sam: Person;
  let stan: Person;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    await t.app.ready();
    olive = await registerUser(t.app, { displayName: 'Olive Owner' });
    sam = await registerUser(t.app, { displayName: 'Sam Sharer' });
    stan = await registerUser(t.app, { displayName: 'Stan Stranger' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (who: Person, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: bearer(who.idToken), ...(payload === undefined ? {} : { payload: payload as object }) });
  const ok = async (who: Person, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) => {
    const response = await call(who, method, url, payload);
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json() as unknown;
  };
  const makeList = async (owner: Person, name: string, members: Person[]) => {
    const list = TaskList.parse(await ok(owner, 'POST', '/api/task-lists', { name }));
    return TaskList.parse(await ok(owner, 'PUT', `/api/task-lists/${list.id}/members`, { emails: members.map((member) => member.user.email) }));
  };
  const makeTask = async (who: Person, body: Record<string, unknown>) =>
    Task.parse(await ok(who, 'POST', '/schedule', { first_schedule_time: iso(t.clock.now() + DAY), ...body }));
  const active = async (who: Person) => TaskPage.parse(await ok(who, 'GET', '/schedule?pageSize=100')).tasks.map((task) => task.name);
  const done = async (who: Person) => DonePage.parse(await ok(who, 'GET', '/schedule/completions?pageSize=100')).done.map((entry) => entry.name);
  const complete = async (who: Person, id: string) => Task.parse(await ok(who, 'PUT', `/schedule/${id}`, { type: 'complete' }));
  const refusal = async (who: Person, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const response = await call(who, method, url, payload);
    return { status: response.statusCode, message: ErrorReply.parse(response.json()).message };
  };

  it('shares a list: both people see its tasks and complete them, a third gets 404 for the list and its tasks', async () => {
    const list = await makeList(olive, '  Flat   chores ', [sam]);
    expect(list).toMatchObject({ name: 'Flat chores', owned: true, owner_id: olive.user.uid });
    expect(list.people).toEqual([
      { id: olive.user.uid, display_name: 'Olive Owner', email: olive.user.email },
      { id: sam.user.uid, display_name: 'Sam Sharer', email: sam.user.email },
    ]);
    const seenBySam = TaskLists.parse(await ok(sam, 'GET', '/api/task-lists')).find((one) => one.id === list.id);
    expect(seenBySam).toMatchObject({ owned: false, people: [{ id: olive.user.uid, email: null }, { id: sam.user.uid, email: sam.user.email }] });
    expect(TaskLists.parse(await ok(stan, 'GET', '/api/task-lists')).map((one) => one.id)).not.toContain(list.id);

    const bins = await makeTask(olive, { name: 'Put the bins out', list_id: list.id, assignee_id: sam.user.uid });
    expect(bins).toMatchObject({ list_id: list.id, assignee_id: sam.user.uid, rotation: [], turn_id: sam.user.uid });
    const plants = await makeTask(sam, { name: 'Water the plants', list_id: list.id, schedule_type: 'o' });
    const own = await makeTask(olive, { name: 'Olive alone' });
    expect(own).toMatchObject({ list_id: null, assignee_id: null, rotation: [], turn_id: null });

    expect(await active(olive)).toEqual(expect.arrayContaining(['Put the bins out', 'Water the plants', 'Olive alone']));
    expect(await active(sam)).toEqual(expect.arrayContaining(['Put the bins out', 'Water the plants']));
    expect(await active(sam)).not.toContain('Olive alone');
    expect(await active(stan)).toEqual([]);
    const filtered = async (who: Person, list: string) => TaskPage.parse(await ok(who, 'GET', `/schedule?pageSize=100&list=${list}`)).tasks.map((task) => task.name);
    expect((await filtered(sam, list.id)).sort()).toEqual(['Put the bins out', 'Water the plants']);
    expect(await filtered(olive, 'none')).toEqual(['Olive alone']);
    expect(await filtered(stan, list.id)).toEqual([]);

    expect((await complete(sam, bins.id)).schedule_time).toBe(iso(Date.parse(bins.schedule_time) + DAY));
    expect(await complete(olive, plants.id)).toMatchObject({ active: false });
    expect(Task.parse(await ok(sam, 'PUT', `/schedule/${bins.id}`, { type: 'update', key: 'comment', value: 'Blue bin on Tuesdays' })).comment).toBe('Blue bin on Tuesdays');
    for (const who of [olive, sam]) {
      expect(await done(who)).toEqual(expect.arrayContaining(['Put the bins out', 'Water the plants']));
      expect(TaskCompletion.array().parse(await ok(who, 'GET', `/schedule/${bins.id}/completions`))).toHaveLength(1);
    }
    expect(await done(stan)).toEqual([]);

    // The calendar feed of a member has the list's tasks; a stranger's has none.
    const feedOf = async (who: Person) => {
      const { url } = CalendarSubscription.parse(await ok(who, 'POST', '/api/users/me/calendar'));
      return (await t.app.inject({ url: new URL(url).pathname })).body;
    };
    expect(await feedOf(sam)).toContain('SUMMARY:Put the bins out');
    expect(await feedOf(stan)).not.toContain('Put the bins out');

    for (const [method, url, payload] of [
      ['GET', `/schedule/${bins.id}`],
      ['GET', `/schedule/${bins.id}/completions`],
      ['PUT', `/schedule/${bins.id}`, { type: 'complete' }],
      ['PUT', `/schedule/${bins.id}`, { type: 'update', key: 'name', value: 'Mine now' }],
      ['DELETE', `/schedule/${bins.id}`],
      ['PATCH', `/api/task-lists/${list.id}`, { name: 'Mine now' }],
      ['PUT', `/api/task-lists/${list.id}/members`, { emails: [stan.user.email] }],
      ['DELETE', `/api/task-lists/${list.id}`],
    ] as const) {
      expect(await refusal(stan, method, url, payload), `${method} ${url}`).toMatchObject({ status: 404 });
    }
    // A member acts on the tasks, not on the list itself.
    expect((await refusal(sam, 'PATCH', `/api/task-lists/${list.id}`, { name: 'Sam\'s' })).status).toBe(404);
    expect((await refusal(sam, 'DELETE', `/api/task-lists/${list.id}`)).status).toBe(404);
    // Stan cannot put a task of his into a list he does not see, nor Olive hers into it with him as assignee.
    expect(await refusal(stan, 'POST', '/schedule', { name: 'Sneak in', first_schedule_time: iso(t.clock.now()), list_id: list.id })).toEqual({
      status: 400,
      message: 'list_id: is not one of your lists',
    });
    expect(await refusal(olive, 'PUT', `/schedule/${bins.id}`, { type: 'update', key: 'assignee_id', value: stan.user.uid })).toEqual({
      status: 400,
      message: "assignee_id: must name people of the task's list",
    });
    expect(await refusal(olive, 'PUT', `/schedule/${own.id}`, { type: 'update', key: 'rotation', value: [olive.user.uid] })).toEqual({
      status: 400,
      message: 'rotation: only a task in a list has one',
    });
    expect(Task.parse(await ok(olive, 'GET', `/schedule/${bins.id}`))).toMatchObject({ name: 'Put the bins out', assignee_id: sam.user.uid });
  });

  it('moves the turn of a rotating task A → B → A as it is completed', async () => {
    const list = await makeList(olive, 'Dishes', [sam]);
    const dishes = await makeTask(olive, { name: 'Dishes', list_id: list.id, rotation: [olive.user.uid, sam.user.uid] });
    expect(dishes).toMatchObject({ rotation: [olive.user.uid, sam.user.uid], turn_id: olive.user.uid });
    expect((await complete(olive, dishes.id)).turn_id).toBe(sam.user.uid);
    expect((await complete(sam, dishes.id)).turn_id).toBe(olive.user.uid);
    // A new rotation starts at its first person.
    const reordered = Task.parse(await ok(sam, 'PUT', `/schedule/${dishes.id}`, { type: 'update', key: 'rotation', value: [sam.user.uid, olive.user.uid] }));
    expect(reordered.turn_id).toBe(sam.user.uid);
  });

  it('takes the tasks away from a member removed at once, and skips them in the rotation', async () => {
    const list = await makeList(olive, 'Garden', [sam]);
    const task = await makeTask(olive, { name: 'Mow the lawn', list_id: list.id, rotation: [sam.user.uid, olive.user.uid] });
    expect(task.turn_id).toBe(sam.user.uid);
    expect((await ok(sam, 'GET', `/schedule/${task.id}`)) as Task).toMatchObject({ id: task.id });

    await ok(olive, 'PUT', `/api/task-lists/${list.id}/members`, { emails: [] });
    // The same bearer token as before: access is read from the membership as it is now.
    expect((await refusal(sam, 'GET', `/schedule/${task.id}`)).status).toBe(404);
    expect((await refusal(sam, 'PUT', `/schedule/${task.id}`, { type: 'complete' })).status).toBe(404);
    expect(await active(sam)).not.toContain('Mow the lawn');
    expect(TaskLists.parse(await ok(sam, 'GET', '/api/task-lists')).map((one) => one.id)).not.toContain(list.id);
    expect(Task.parse(await ok(olive, 'GET', `/schedule/${task.id}`))).toMatchObject({ rotation: [olive.user.uid], turn_id: olive.user.uid });
  });

  it('refuses an address that is no other account, changing nothing', async () => {
    const list = await makeList(olive, 'Kitchen', [sam]);
    for (const emails of [['nobody@example.org'], [sam.user.email, olive.user.email]]) {
      expect(await refusal(olive, 'PUT', `/api/task-lists/${list.id}/members`, { emails })).toMatchObject({ status: 400, message: expect.stringMatching(/is not another account here$/) });
    }
    expect((await refusal(olive, 'PUT', `/api/task-lists/${list.id}/members`, { emails: ['not an address'] })).status).toBe(400);
    expect(TaskLists.parse(await ok(sam, 'GET', '/api/task-lists')).find((one) => one.id === list.id)?.people.map((person) => person.id)).toEqual([
      olive.user.uid,
      sam.user.uid,
    ]);
  });

  it('gives a deleted list\'s tasks back to whoever made each', async () => {
    const list = await makeList(olive, 'Moving house', [sam]);
    const hers = await makeTask(olive, { name: 'Book the van', list_id: list.id, assignee_id: sam.user.uid });
    const his = await makeTask(sam, { name: 'Pack the books', list_id: list.id });
    expect((await call(olive, 'DELETE', `/api/task-lists/${list.id}`)).statusCode).toBe(204);
    expect(Task.parse(await ok(olive, 'GET', `/schedule/${hers.id}`))).toMatchObject({ list_id: null, assignee_id: null, turn_id: null });
    expect(Task.parse(await ok(sam, 'GET', `/schedule/${his.id}`))).toMatchObject({ list_id: null });
    expect((await refusal(sam, 'GET', `/schedule/${hers.id}`)).status).toBe(404);
    expect((await refusal(olive, 'GET', `/schedule/${his.id}`)).status).toBe(404);
    expect((await refusal(olive, 'PATCH', `/api/task-lists/${list.id}`, { name: 'Again' })).status).toBe(404);
  });
});
