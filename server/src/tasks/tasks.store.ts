import type { Kysely, Selectable, Updateable } from 'kysely';
import { TASK_COMPLETIONS_SHOWN, type TaskStatus } from '../../../contract/tasks.ts';
import type { Database, TaskCompletionsTable, TasksTable } from '../storage/schema.ts';

export type TaskRow = Selectable<TasksTable>;
export type TaskPatch = Omit<Updateable<TasksTable>, 'id' | 'owner_id'>;
export type CompletionRow = Selectable<TaskCompletionsTable>;
/** Where a page of the list starts: after this task in the list's (schedule_time, id) order. */
export type TaskPosition = { scheduleTime: number; id: string };
/** Where a page of the Done list starts: after this completion in (completed_at, id) order. */
export type DonePosition = { completedAt: number; id: number };
export type DoneRow = CompletionRow & Pick<TaskRow, 'name' | 'schedule_type'>;

/** Bound parameters per query stay far below both databases' limits. */
const CALENDAR_IDS_PER_QUERY = 500;

/**
 * Task rows; every read and write names the owner in its WHERE, so another user's id is simply not
 * there. With `locking` (PostgreSQL) a delete takes the row locks the notice sender holds.
 */
export function createTasksStore(db: Kysely<Database>, { locking }: { locking: boolean }) {
  const find = (ownerId: string, id: string): Promise<TaskRow | undefined> =>
    db.selectFrom('tasks').selectAll().where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();

  return {
    async insert(row: TaskRow): Promise<void> {
      await db.insertInto('tasks').values(row).execute();
    },

    find,

    /**
     * `limit` tasks after `after`: active ones soonest due first, done ones latest due first (the
     * last finished on top), all of them soonest due first.
     */
    page(ownerId: string, status: TaskStatus, after: TaskPosition | undefined, limit: number): Promise<TaskRow[]> {
      const newestFirst = status === 'done';
      let query = db.selectFrom('tasks').selectAll().where('owner_id', '=', ownerId);
      if (status !== 'all') query = query.where('active', '=', status === 'active' ? 1 : 0);
      if (after) {
        // A row-value comparison: both databases read it as one range of the index; an OR would scan.
        query = query.where((eb) =>
          eb(eb.refTuple('schedule_time', 'id'), newestFirst ? '<' : '>', eb.tuple(after.scheduleTime, after.id)),
        );
      }
      const direction = newestFirst ? 'desc' : 'asc';
      return query.orderBy('schedule_time', direction).orderBy('id', direction).limit(limit).execute();
    },

    async update(ownerId: string, id: string, patch: TaskPatch): Promise<TaskRow | undefined> {
      await db.updateTable('tasks').set(patch).where('owner_id', '=', ownerId).where('id', '=', id).execute();
      return find(ownerId, id);
    },

    /**
     * Applies a Complete and records it, in one transaction, only if the task is still at the
     * occurrence `row` shows: of two Completes at once, the second finds it moved and changes nothing.
     * Undefined when it had moved (or is gone).
     */
    async complete(row: TaskRow, patch: TaskPatch, completedAt: number): Promise<TaskRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('tasks')
          .set(patch)
          .where('owner_id', '=', row.owner_id)
          .where('id', '=', row.id)
          .where('active', '=', 1)
          .where('occurrence_index', '=', row.occurrence_index)
          .where('schedule_time', '=', row.schedule_time)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return undefined;
        await trx
          .insertInto('task_completions')
          .values({
            task_id: row.id,
            owner_id: row.owner_id,
            occurrence_index: row.occurrence_index,
            due_time: row.schedule_time,
            completed_at: completedAt,
            checklist: row.checklist,
          })
          .execute();
        return trx.selectFrom('tasks').selectAll().where('owner_id', '=', row.owner_id).where('id', '=', row.id).executeTakeFirst();
      });
    },

    /**
     * Writes the checklist only if it is still `before`: of two edits at once, the second finds it
     * changed and changes nothing. Undefined when it had changed (or the task is gone).
     */
    async updateChecklist(ownerId: string, id: string, before: string, after: string, now: number): Promise<TaskRow | undefined> {
      const result = await db
        .updateTable('tasks')
        .set({ checklist: after, last_updated: now })
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        .where('checklist', '=', before)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 0 ? undefined : find(ownerId, id);
    },

    /** The task's newest completions, newest first. */
    completions(ownerId: string, taskId: string): Promise<CompletionRow[]> {
      return db
        .selectFrom('task_completions')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .where('task_id', '=', taskId)
        .orderBy('completed_at', 'desc')
        .orderBy('id', 'desc')
        .limit(TASK_COMPLETIONS_SHOWN)
        .execute();
    },

    /** `limit` completions of the owner's tasks after `after`, the latest completed first, each with its task's name and kind. */
    done(ownerId: string, after: DonePosition | undefined, limit: number): Promise<DoneRow[]> {
      let query = db
        .selectFrom('task_completions')
        .innerJoin('tasks', 'tasks.id', 'task_completions.task_id')
        .selectAll('task_completions')
        .select(['tasks.name', 'tasks.schedule_type'])
        .where('task_completions.owner_id', '=', ownerId);
      if (after) {
        query = query.where((eb) =>
          eb(eb.refTuple('task_completions.completed_at', 'task_completions.id'), '<', eb.tuple(after.completedAt, after.id)),
        );
      }
      return query.orderBy('task_completions.completed_at', 'desc').orderBy('task_completions.id', 'desc').limit(limit).execute();
    },

    /** Every task of the owner (due order) and every completion (oldest first), for the owner's export. */
    async everything(ownerId: string): Promise<{ tasks: TaskRow[]; completions: CompletionRow[] }> {
      const tasks = await db.selectFrom('tasks').selectAll().where('owner_id', '=', ownerId).orderBy('schedule_time').orderBy('id').execute();
      const completions = await db
        .selectFrom('task_completions')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .orderBy('completed_at')
        .orderBy('id')
        .execute();
      return { tasks, completions };
    },

    /**
     * What the calendar feed reads: the owner's active tasks, soonest due first, and the completions
     * due within `from`–`to` with the tasks they belong to. At most `limit` of each, as the feed
     * shows no more events than that.
     */
    async calendar(ownerId: string, from: number, to: number, limit: number): Promise<{ tasks: TaskRow[]; completions: CompletionRow[] }> {
      const active = await db
        .selectFrom('tasks')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .where('active', '=', 1)
        .orderBy('schedule_time')
        .orderBy('id')
        .limit(limit)
        .execute();
      const completions = await db
        .selectFrom('task_completions')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .where('due_time', '>=', from)
        .where('due_time', '<=', to)
        .orderBy('due_time')
        .limit(limit)
        .execute();
      const loaded = new Set(active.map((task) => task.id));
      const missing = [...new Set(completions.map((completion) => completion.task_id))].filter((id) => !loaded.has(id));
      const others: TaskRow[] = [];
      for (let at = 0; at < missing.length; at += CALENDAR_IDS_PER_QUERY) {
        const ids = missing.slice(at, at + CALENDAR_IDS_PER_QUERY);
        others.push(...(await db.selectFrom('tasks').selectAll().where('owner_id', '=', ownerId).where('id', 'in', ids).execute()));
      }
      return { tasks: [...active, ...others], completions };
    },

    /**
     * Deletes the task with its notices and completions; false when the owner has no such task.
     *
     * A notice being sent is neither lost nor sent twice. First the task stops taking new notices
     * (committed at once, so the scheduler claims none meanwhile); then, on PostgreSQL, the delete
     * locks the task's notices, which waits for a send under way in another transaction (the sender
     * holds its notice's lock until the outcome is written) — and only then the task row, in the
     * sender's own order (notice, then task), so the two never wait for each other. On SQLite a
     * send under way finds its notice gone when it records the outcome, and records nothing.
     */
    async delete(ownerId: string, id: string): Promise<boolean> {
      const stopped = await db
        .updateTable('tasks')
        .set({ next_notice_time: null })
        .where('owner_id', '=', ownerId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(stopped.numUpdatedRows) === 0) return false;
      return db.transaction().execute(async (trx) => {
        if (locking) await trx.selectFrom('task_notices').select('id').where('task_id', '=', id).forUpdate().execute();
        const deleted = await trx.deleteFrom('tasks').where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
        return Number(deleted.numDeletedRows) > 0;
      });
    },
  };
}
export type TasksStore = ReturnType<typeof createTasksStore>;
