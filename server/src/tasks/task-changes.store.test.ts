import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { taskRow } from '../test/task-row.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { createTaskChangesStore } from './task-changes.store.ts';
import { createTasksStore, type TaskRow } from './tasks.store.ts';

const DUE = Date.UTC(2026, 11, 1);

const row = (id: string, ownerId: string): TaskRow =>
  taskRow(ownerId, 0, { id, name: `Task ${id}`, schedule_type: 'o', first_schedule_time: DUE, anchor_time: DUE, schedule_time: DUE });

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
