import type { Kysely, Selectable, SelectQueryBuilder, Updateable } from 'kysely';
import { OWN_TASKS, TASK_COMPLETIONS_SHOWN, type TaskStatus } from '../../../contract/tasks.ts';
import type { Database, TaskCompletionsTable, TasksTable } from '../storage/schema.ts';
import { calendarOfTask, type ClientIdentity, recordTaskChange } from './task-change-record.ts';
import { parseChecklist } from './checklists.ts';
import { listIdsOf, taskVisibleTo } from './lists.store.ts';

export type TaskRow = Selectable<TasksTable>;
export type TaskPatch = Omit<Updateable<TasksTable>, 'id' | 'owner_id'>;
export type CompletionRow = Selectable<TaskCompletionsTable>;
/** Where a page of the list starts: after this task in the list's (schedule_time, id) order. */
export type TaskPosition = { scheduleTime: number; id: string };
/** Where a page of the Done list starts: after this completion in (completed_at, id) order. */
export type DonePosition = { completedAt: number; id: number };
export type DoneRow = CompletionRow & Pick<TaskRow, 'name' | 'schedule_type'>;

const itemIds = (checklist: string) => parseChecklist(checklist).map((item) => item.id);

/** Bound parameters per query stay far below both databases' limits. */
const CALENDAR_IDS_PER_QUERY = 500;

/**
 * Task rows; every read and write names the viewer in its WHERE (their own tasks and those of the
 * lists they own or are a member of: `taskVisibleTo`), so another user's id is simply not there.
 * With `locking` (PostgreSQL) a delete takes the row locks the notice sender holds. Every write
 * records a change in the task's calendar (task-changes.store.ts) in its own transaction, for
 * CalDAV's sync tokens.
 */
export function createTasksStore(db: Kysely<Database>, { locking }: { locking: boolean }) {
  const find = (viewerId: string, id: string): Promise<TaskRow | undefined> =>
    db.selectFrom('tasks').selectAll().where('id', '=', id).where(taskVisibleTo(viewerId)).executeTakeFirst();

  return {
    /** `identity`: the UID and resource name of a task a CalDAV client made. */
    async insert(row: TaskRow, identity?: ClientIdentity): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('tasks').values(row).execute();
        await recordTaskChange(trx, row, { identity });
      });
    },

    find,

    /**
     * `limit` tasks after `after`: active ones soonest due first, done ones latest due first (the
     * last finished on top), all of them soonest due first. With `list`, only that list's tasks, or
     * with OWN_TASKS only the viewer's unlisted ones.
     */
    page(viewerId: string, status: TaskStatus, after: TaskPosition | undefined, limit: number, list?: string): Promise<TaskRow[]> {
      const newestFirst = status === 'done';
      const direction = newestFirst ? 'desc' : 'asc';
      const narrowed = (query: SelectQueryBuilder<Database, 'tasks', TaskRow>) => {
        let shown = query;
        if (status !== 'all') shown = shown.where('active', '=', status === 'active' ? 1 : 0);
        if (after) {
          // A row-value comparison: both databases read it as one range of the index; an OR would scan.
          shown = shown.where((eb) =>
            eb(eb.refTuple('schedule_time', 'id'), newestFirst ? '<' : '>', eb.tuple(after.scheduleTime, after.id)),
          );
        }
        return shown.orderBy('schedule_time', direction).orderBy('id', direction).limit(limit);
      };
      // The viewer's own tasks and their lists' tasks, each a range of its own index, merged: one
      // query with an OR of the two sorted every task of the viewer for each page (35 ms at 100,000).
      const own = narrowed(db.selectFrom('tasks').selectAll().where('owner_id', '=', viewerId).where('list_id', 'is', null));
      const listed = narrowed(
        db
          .selectFrom('tasks')
          .selectAll()
          .where('list_id', 'in', listIdsOf(db, viewerId))
          .$if(list !== undefined && list !== OWN_TASKS, (query) => query.where('list_id', '=', list ?? '')),
      );
      if (list === OWN_TASKS) return own.execute();
      if (list !== undefined) return listed.execute();
      return db
        .selectFrom(own.as('own'))
        .selectAll()
        .unionAll(db.selectFrom(listed.as('listed')).selectAll())
        .orderBy('schedule_time', direction)
        .orderBy('id', direction)
        .limit(limit)
        .execute();
    },

    /**
     * Changes the task, if the viewer may; the task as it is then, or undefined when they may not (or
     * it is gone). `expectedChange`: only if the task is still at that change (task-changes.store.ts),
     * else a 412 and nothing written.
     */
    async update(viewerId: string, id: string, patch: TaskPatch, expectedChange?: number): Promise<TaskRow | undefined> {
      return db.transaction().execute(async (trx) => {
        // The calendar it was in: a change of list moves it to another (task-changes.store.ts).
        const before = await trx.selectFrom('tasks').select(['owner_id', 'list_id']).where('id', '=', id).where(taskVisibleTo(viewerId)).executeTakeFirst();
        if (!before) return undefined;
        const result = await trx.updateTable('tasks').set(patch).where('id', '=', id).where(taskVisibleTo(viewerId)).executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return undefined;
        const updated = await trx.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        const movedFrom = calendarOfTask(before);
        const goneItems = movedFrom === calendarOfTask(updated) ? [] : itemIds(updated.checklist);
        await recordTaskChange(trx, updated, { expectedChange, movedFrom, goneItems });
        return updated;
      });
    },

    /**
     * Applies a Complete and records it, in one transaction, only if the task is still at the
     * occurrence `row` shows: of two Completes at once, the second finds it moved and changes nothing.
     * Undefined when it had moved (or is gone).
     */
    async complete(viewerId: string, row: TaskRow, patch: TaskPatch, completedAt: number): Promise<TaskRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('tasks')
          .set(patch)
          .where('id', '=', row.id)
          .where(taskVisibleTo(viewerId))
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
        await recordTaskChange(trx, row);
        return trx.selectFrom('tasks').selectAll().where('id', '=', row.id).executeTakeFirst();
      });
    },

    /**
     * Writes the checklist only if it is still `before`: of two edits at once, the second finds it
     * changed and changes nothing. Undefined when it had changed (or the task is gone).
     */
    async updateChecklist(viewerId: string, id: string, before: string, after: string, now: number): Promise<TaskRow | undefined> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('tasks')
          .set({ checklist: after, last_updated: now })
          .where('id', '=', id)
          .where('checklist', '=', before)
          .where(taskVisibleTo(viewerId))
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return undefined;
        const updated = await trx.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        const kept = new Set(itemIds(after));
        await recordTaskChange(trx, updated, { goneItems: itemIds(before).filter((itemId) => !kept.has(itemId)) });
        return updated;
      });
    },

    /** The task's newest completions, newest first. */
    completions(viewerId: string, taskId: string): Promise<CompletionRow[]> {
      return db
        .selectFrom('task_completions')
        .innerJoin('tasks', 'tasks.id', 'task_completions.task_id')
        .selectAll('task_completions')
        .where('task_completions.task_id', '=', taskId)
        .where(taskVisibleTo(viewerId))
        .orderBy('task_completions.completed_at', 'desc')
        .orderBy('task_completions.id', 'desc')
        .limit(TASK_COMPLETIONS_SHOWN)
        .execute();
    },

    /** `limit` completions of the viewer's tasks after `after`, the latest completed first, each with its task's name and kind. */
    done(viewerId: string, after: DonePosition | undefined, limit: number): Promise<DoneRow[]> {
      const of = (where: 'own' | 'listed') => {
        let query = db
          .selectFrom('task_completions')
          .innerJoin('tasks', 'tasks.id', 'task_completions.task_id')
          .selectAll('task_completions')
          .select(['tasks.name', 'tasks.schedule_type']);
        // As the task page: the owner's own through the owner's index, their lists' apart, merged.
        query =
          where === 'own'
            ? query.where('task_completions.owner_id', '=', viewerId).where('tasks.list_id', 'is', null)
            : query.where('tasks.list_id', 'in', listIdsOf(db, viewerId));
        if (after) {
          query = query.where((eb) =>
            eb(eb.refTuple('task_completions.completed_at', 'task_completions.id'), '<', eb.tuple(after.completedAt, after.id)),
          );
        }
        return query.orderBy('task_completions.completed_at', 'desc').orderBy('task_completions.id', 'desc').limit(limit);
      };
      return db
        .selectFrom(of('own').as('own'))
        .selectAll()
        .unionAll(db.selectFrom(of('listed').as('listed')).selectAll())
        .orderBy('completed_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
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
     * What the calendar feed reads: the viewer's active tasks, soonest due first, and the completions
     * due within `from`–`to` with the tasks they belong to. At most `limit` of each, as the feed
     * shows no more events than that.
     */
    async calendar(viewerId: string, from: number, to: number, limit: number): Promise<{ tasks: TaskRow[]; completions: CompletionRow[] }> {
      const active = await db
        .selectFrom('tasks')
        .selectAll()
        .where(taskVisibleTo(viewerId))
        .where('active', '=', 1)
        .orderBy('schedule_time')
        .orderBy('id')
        .limit(limit)
        .execute();
      const completions = await db
        .selectFrom('task_completions')
        .innerJoin('tasks', 'tasks.id', 'task_completions.task_id')
        .selectAll('task_completions')
        .where(taskVisibleTo(viewerId))
        .where('task_completions.due_time', '>=', from)
        .where('task_completions.due_time', '<=', to)
        .orderBy('task_completions.due_time')
        .limit(limit)
        .execute();
      const loaded = new Set(active.map((task) => task.id));
      const missing = [...new Set(completions.map((completion) => completion.task_id))].filter((id) => !loaded.has(id));
      const others: TaskRow[] = [];
      for (let at = 0; at < missing.length; at += CALENDAR_IDS_PER_QUERY) {
        const ids = missing.slice(at, at + CALENDAR_IDS_PER_QUERY);
        others.push(...(await db.selectFrom('tasks').selectAll().where(taskVisibleTo(viewerId)).where('id', 'in', ids).execute()));
      }
      return { tasks: [...active, ...others], completions };
    },

    /**
     * Deletes the task with its notices and completions; false when the viewer has no such task.
     *
     * A notice being sent is neither lost nor sent twice. First the task stops taking new notices
     * (committed at once, so the scheduler claims none meanwhile); then, on PostgreSQL, the delete
     * locks the task's notices, which waits for a send under way in another transaction (the sender
     * holds its notice's lock until the outcome is written) — and only then the task row, in the
     * sender's own order (notice, then task), so the two never wait for each other. On SQLite a
     * send under way finds its notice gone when it records the outcome, and records nothing.
     */
    async delete(viewerId: string, id: string): Promise<boolean> {
      const stopped = await db
        .updateTable('tasks')
        .set({ next_notice_time: null })
        .where('id', '=', id)
        .where(taskVisibleTo(viewerId))
        .executeTakeFirst();
      if (Number(stopped.numUpdatedRows) === 0) return false;
      return db.transaction().execute(async (trx) => {
        if (locking) await trx.selectFrom('task_notices').select('id').where('task_id', '=', id).forUpdate().execute();
        const gone = await trx
          .deleteFrom('tasks')
          .where('id', '=', id)
          .where(taskVisibleTo(viewerId))
          .returning(['id', 'owner_id', 'list_id', 'checklist'])
          .executeTakeFirst();
        if (!gone) return false;
        await recordTaskChange(trx, gone, { deleted: true, goneItems: itemIds(gone.checklist) });
        return true;
      });
    },
  };
}
export type TasksStore = ReturnType<typeof createTasksStore>;
