import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { createTaskChangesStore } from './task-changes.store.ts';
import { createTasksStore, type TaskRow } from './tasks.store.ts';

const row = (id: string, ownerId: string): TaskRow => ({
  id,
  owner_id: ownerId,
  name: `Task ${id}`,
  active: 1,
  create_time: 0,
  last_updated: 0,
  first_schedule_time: Date.UTC(2026, 11, 1),
  schedule_end_time: null,
  schedule_type: 'o',
  anchor_time: Date.UTC(2026, 11, 1),
  occurrence_index: 0,
  schedule_time: Date.UTC(2026, 11, 1),
  next_notice_time: null,
  notice_set_by_user: 0,
  last_notice_time: null,
  emails: '[]',
  overdue_notice: 1,
  notice_hours: '[]',
  notice_in_workday: 0,
  comment: '',
  notice_error: null,
  list_id: null,
  assignee_id: null,
  rotation: '[]',
  rotation_turn: 0,
  rrule: null,
  repeat_from: 'due',
  checklist: '[]',
});

describe.each(testDialects)('the change numbers of tasks on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let other: string;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    owner = (await registerUser(t.app)).user.uid;
    other = (await registerUser(t.app)).user.uid;
  });
  afterAll(async () => t?.close());

  it('numbers each write of the owner\'s tasks in turn, keeps a tombstone of a deletion, and refuses a write against an old number', async () => {
    const tasks = createTasksStore(t.storage.db, { locking: dialect === 'postgres' });
    const changes = createTaskChangesStore(t.storage.db);
    await tasks.insert(row('a', owner));
    await tasks.insert(row('b', owner), { uid: 'b@phone', resourceName: 'b@phone.ics' });
    await tasks.insert(row('c', other));
    expect(await changes.lastChange(owner)).toBe(2);
    expect(await changes.lastChange(other)).toBe(1);

    await tasks.update(owner, 'a', { name: 'Renamed' }, 1);
    const stale = await tasks.update(owner, 'a', { name: 'Stale' }, 1).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(AppError);
    expect((stale as AppError).statusCode).toBe(412);
    expect((await tasks.find(owner, 'a'))?.name).toBe('Renamed');

    await tasks.delete(owner, 'b');
    const since = await changes.since(owner, owner, 2);
    expect(since.changed.map((changed) => [changed.task.id, changed.change])).toEqual([['a', 3]]);
    expect(since.deleted).toEqual([{ taskId: 'b', change: 4, resourceName: 'b@phone.ics' }]);
    expect((await changes.since(owner, owner, 0)).deleted).toEqual([]);
    expect((await changes.named(other, other, ['a.ics', 'c.ics'])).map((named) => named.task.id)).toEqual(['c']);
  });
});
