import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskList } from '../../../contract/task-lists.ts';
import { Task } from '../../../contract/tasks.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { calendarOfTask } from './task-change-record.ts';
import { createTaskChangesStore } from './task-changes.store.ts';

type Person = Awaited<ReturnType<typeof registerUser>>;
const DAY = 24 * 3_600_000;

// A deleted account's rows go by the database's cascades; the other people of its household lists
// must still hear, through their CalDAV clients' next sync, what left their calendars.
describe.each(testDialects)('household lists when an account is deleted, on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    await t.app.ready();
  });
  afterAll(async () => {
    await t?.close();
  });

  const ok = async (who: Person, method: 'POST' | 'PUT', url: string, payload: object) => {
    const response = await t.app.inject({ method, url, headers: bearer(who.idToken), payload });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json() as unknown;
  };
  const deleteAccount = async (who: Person) => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/users/me', headers: bearer(who.idToken), payload: { email: who.user.email } });
    expect(response.statusCode, response.body).toBe(204);
  };
  async function household() {
    const owner = await registerUser(t.app, { displayName: 'Owner' });
    const member = await registerUser(t.app, { displayName: 'Member' });
    const list = TaskList.parse(await ok(owner, 'POST', '/api/task-lists', { name: 'Chores' }));
    await ok(owner, 'PUT', `/api/task-lists/${list.id}/members`, { emails: [member.user.email] });
    const task = async (who: Person, name: string) =>
      Task.parse(await ok(who, 'POST', '/schedule', { name, list_id: list.id, first_schedule_time: new Date(t.clock.now() + DAY).toISOString() }));
    return { owner, member, list, task };
  }
  const changes = () => createTaskChangesStore(t.storage.db);

  it("leaves a tombstone in the list's calendar for each task of a deleted member, and for its checklist's items", async () => {
    const { owner, member, list, task } = await household();
    const kept = await task(owner, 'Water the plants');
    const leaving = await task(member, 'Take out the bins');
    const withItem = Task.parse(await ok(member, 'POST', `/schedule/${leaving.id}/checklist`, { text: 'Recycling too' }));
    const calendar = calendarOfTask({ owner_id: owner.user.uid, list_id: list.id });
    const synced = await changes().lastChange(calendar);

    await deleteAccount(member);

    const since = await changes().since(owner.user.uid, calendar, synced);
    expect(since.changed).toEqual([]);
    expect(since.deleted.map((gone) => gone.resourceName).sort()).toEqual(
      [`${leaving.id}.ics`, `${leaving.id}-item-${withItem.checklist[0]!.id}.ics`].sort(),
    );
    const everything = await changes().since(owner.user.uid, calendar, 0);
    expect(everything.changed.map((one) => one.task.id)).toEqual([kept.id]);
  });

  it("moves each member's task of a deleted owner's list to the member's own calendar, as a deleted list does", async () => {
    const { owner, member, list, task } = await household();
    await task(owner, 'Book the boiler service');
    const members = await task(member, 'Feed the cat');
    const ownCalendar = member.user.uid;
    const synced = await changes().lastChange(ownCalendar);

    await deleteAccount(owner);

    const since = await changes().since(member.user.uid, ownCalendar, synced);
    expect(since.changed.map((one) => [one.task.id, one.task.list_id])).toEqual([[members.id, null]]);
    expect(await changes().lastChange(calendarOfTask({ owner_id: owner.user.uid, list_id: list.id }))).toBe(0);
  });
});
