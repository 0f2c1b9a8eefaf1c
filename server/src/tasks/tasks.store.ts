import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, TasksTable } from '../storage/schema.ts';

export type TaskRow = Selectable<TasksTable>;
export type TaskPatch = Omit<Updateable<TasksTable>, 'id' | 'owner_id'>;
/** Where a page of the list starts: after this task in (schedule_time, id) order. */
export type TaskPosition = { scheduleTime: number; id: string };

/** Task rows; every read and write names the owner in its WHERE, so another user's id is simply not there. */
export function createTasksStore(db: Kysely<Database>) {
  return {
    async insert(row: TaskRow): Promise<void> {
      await db.insertInto('tasks').values(row).execute();
    },

    find(ownerId: string, id: string): Promise<TaskRow | undefined> {
      return db.selectFrom('tasks').selectAll().where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
    },

    /** Active tasks, soonest due first, `limit` of them after `after`. */
    page(ownerId: string, after: TaskPosition | undefined, limit: number): Promise<TaskRow[]> {
      let query = db.selectFrom('tasks').selectAll().where('owner_id', '=', ownerId).where('active', '=', 1);
      if (after) {
        // A row-value comparison: both databases read it as one range of the index; an OR would scan.
        query = query.where((eb) =>
          eb(eb.refTuple('schedule_time', 'id'), '>', eb.tuple(after.scheduleTime, after.id)),
        );
      }
      return query.orderBy('schedule_time').orderBy('id').limit(limit).execute();
    },

    async update(ownerId: string, id: string, patch: TaskPatch): Promise<TaskRow | undefined> {
      await db.updateTable('tasks').set(patch).where('owner_id', '=', ownerId).where('id', '=', id).execute();
      return this.find(ownerId, id);
    },
  };
}
export type TasksStore = ReturnType<typeof createTasksStore>;
