import { beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../storage/database.ts';
import { createTestDatabase, openTestStorage, testDialects } from '../test/test-app.ts';
import { taskRow } from '../test/task-row.ts';
import { createListsStore, type ListsStore } from './lists.store.ts';
import { createTasksStore, type TaskRow, type TasksStore } from './tasks.store.ts';

const AT = Date.UTC(2026, 2, 2, 9);

describe.each(testDialects)('the task lists store on %s', (dialect) => {
  let storage: Storage;
  let lists: ListsStore;
  let tasks: TasksStore;

  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    storage = await openTestStorage(database);
    lists = createListsStore(storage.db);
    tasks = createTasksStore(storage.db, { locking: dialect === 'postgres' });
    await storage.db
      .insertInto('users')
      .values(
        [['olive', 'Olive', null], ['sam', 'Sam', null], ['ada', 'Ada', null], ['stan', 'Stan', null], ['gone', 'Gone', AT]].map(([id, name, disabled]) => ({
          id: id as string,
          email: `${id as string}@example.org`,
          display_name: name as string,
          photo: null,
          password_hash: null,
          timezone: null,
          is_admin: 0,
          created_at: AT,
          updated_at: AT,
          disabled_at: disabled as number | null,
          password_change_required: 0,
        })),
      )
      .execute();
    return async () => {
      await storage.close();
      await database.drop();
    };
  });

  const task = (id: string, ownerId: string, listId: string | null): TaskRow => taskRow(ownerId, AT, { id, name: id, list_id: listId });
  const seen = async (viewerId: string) => (await tasks.page(viewerId, 'all', undefined, 100)).map((row) => row.id).sort();

  it('lets the owner and the members of a list, as they are now, read and write its tasks, and no one else', async () => {
    const list = await lists.create('olive', 'Chores', AT);
    expect(await lists.setMembers('olive', list, ['sam@example.org', 'ada@example.org'])).toEqual({ found: true, unknown: [] });
    await tasks.insert(task('listed', 'olive', list));
    await tasks.insert(task('olive-own', 'olive', null));
    await tasks.insert(task('sam-own', 'sam', null));

    expect(await seen('olive')).toEqual(['listed', 'olive-own']);
    expect(await seen('sam')).toEqual(['listed', 'sam-own']);
    expect(await seen('stan')).toEqual([]);
    expect(await tasks.update('stan', 'listed', { name: 'taken' })).toBeUndefined();
    expect((await tasks.update('ada', 'listed', { name: 'renamed by Ada' }))?.name).toBe('renamed by Ada');
    const row = (await tasks.find('sam', 'listed'))!;
    expect(await tasks.complete('stan', row, { occurrence_index: 1 }, AT)).toBeUndefined();
    expect((await tasks.complete('sam', row, { occurrence_index: 1 }, AT))?.occurrence_index).toBe(1);
    expect((await tasks.done('ada', undefined, 10)).map((entry) => entry.task_id)).toEqual(['listed']);
    expect(await tasks.done('stan', undefined, 10)).toEqual([]);

    expect(await lists.setMembers('olive', list, ['sam@example.org'])).toEqual({ found: true, unknown: [] });
    expect(await tasks.find('ada', 'listed')).toBeUndefined();
    expect(await tasks.completions('ada', 'listed')).toEqual([]);
    expect(await tasks.delete('ada', 'listed')).toBe(false);
    expect(await tasks.find('sam', 'listed')).toBeDefined();
  });

  it('names a list\'s people, its owner first, and refuses an address that is no other account in use, changing nothing', async () => {
    const list = await lists.create('olive', 'Garden', AT);
    await lists.setMembers('olive', list, ['sam@example.org', 'ada@example.org']);
    for (const emails of [['nobody@example.org'], ['gone@example.org'], ['olive@example.org', 'sam@example.org']]) {
      expect((await lists.setMembers('olive', list, emails)).unknown.length, emails.join()).toBe(1);
    }
    expect(await lists.setMembers('sam', list, [])).toEqual({ found: false, unknown: [] });
    expect((await lists.people([list])).map((person) => [person.id, person.owner])).toEqual([['olive', 1], ['ada', 0], ['sam', 0]]);
    expect((await lists.visible('ada')).map((one) => one.id)).toContain(list);
    expect(await lists.find('stan', list)).toBeUndefined();
    expect(await lists.rename('sam', list, 'Sam\'s')).toBe(false);
  });

  it('gives the tasks of a deleted list back to their creators, unassigned, and only when its owner deletes it', async () => {
    const list = await lists.create('olive', 'Move', AT);
    await lists.setMembers('olive', list, ['sam@example.org']);
    await tasks.insert({ ...task('van', 'olive', list), assignee_id: 'sam', rotation: '["sam","olive"]', rotation_turn: 3 });
    await tasks.insert(task('boxes', 'sam', list));
    expect(await lists.remove('sam', list)).toBe(false);
    expect(await lists.remove('olive', list)).toBe(true);
    expect(await tasks.find('olive', 'van')).toMatchObject({ list_id: null, assignee_id: null, rotation: '[]', rotation_turn: 0 });
    expect(await tasks.find('sam', 'boxes')).toMatchObject({ list_id: null });
    expect(await tasks.find('sam', 'van')).toBeUndefined();
    expect(await lists.people([list])).toEqual([]);
  });

  it("leaves the tasks of a list whose owner's account is deleted to their creators", async () => {
    await storage.db
      .insertInto('users')
      .values({ id: 'leaver', email: 'leaver@example.org', display_name: 'Leaver', photo: null, password_hash: null, timezone: null, is_admin: 0, created_at: AT, updated_at: AT, disabled_at: null, password_change_required: 0 })
      .execute();
    const list = await lists.create('leaver', 'Left behind', AT);
    await lists.setMembers('leaver', list, ['sam@example.org']);
    await tasks.insert(task('kept', 'sam', list));
    await storage.db.deleteFrom('users').where('id', '=', 'leaver').execute();
    expect(await tasks.find('sam', 'kept')).toMatchObject({ list_id: null });
    expect(await lists.find('sam', list)).toBeUndefined();
  });

  it("pages through the viewer's own tasks and their lists' tasks as one list, in due order", async () => {
    const list = await lists.create('ada', 'Paged', AT);
    await lists.setMembers('ada', list, ['stan@example.org']);
    const due = [5, 1, 4, 2, 6, 3];
    for (const [at, minutes] of due.entries()) {
      const row = task(`paged-${minutes}`, at % 2 === 0 ? 'stan' : 'ada', at % 3 === 0 ? null : list);
      await tasks.insert({ ...row, schedule_time: AT + minutes * 60_000 });
    }
    const pages: string[][] = [];
    let after: { scheduleTime: number; id: string } | undefined;
    for (;;) {
      const page = await tasks.page('stan', 'active', after, 2);
      if (page.length === 0) break;
      pages.push(page.map((row) => row.id));
      const last = page.at(-1)!;
      after = { scheduleTime: last.schedule_time, id: last.id };
    }
    // Stan's own (due 5) and the list's (1, 3, 4, 6), not Ada's own (2).
    expect(pages).toEqual([['paged-1', 'paged-3'], ['paged-4', 'paged-5'], ['paged-6']]);
  });
});
