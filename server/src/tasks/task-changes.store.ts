import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { taskVisibleTo } from './lists.store.ts';
import type { TaskRow } from './tasks.store.ts';

export type ChangedTask = { task: TaskRow; change: number; uid: string; resourceName: string };
export type DeletedTask = { taskId: string; change: number; resourceName: string };

/** Bound parameters per query stay far below both databases' limits. */
const NAMES_PER_QUERY = 500;

/**
 * What CalDAV reads: a calendar's change counter, and its tasks and tombstones by change number or
 * by name. A task is read only if the viewer sees it (`taskVisibleTo`) and it is in that calendar.
 */
export function createTaskChangesStore(db: Kysely<Database>) {
  const live = (viewerId: string, calendar: string) =>
    db
      .selectFrom('task_calendar_changes')
      .innerJoin('tasks', 'tasks.id', 'task_calendar_changes.task_id')
      .selectAll('tasks')
      .select(['task_calendar_changes.change', 'task_calendar_changes.uid', 'task_calendar_changes.resource_name'])
      .where('task_calendar_changes.calendar', '=', calendar)
      .where('task_calendar_changes.deleted', '=', 0)
      .where(taskVisibleTo(viewerId));

  const toChanged = ({ change, uid, resource_name, ...task }: TaskRow & { change: number; uid: string; resource_name: string }): ChangedTask => ({
    task,
    change: Number(change),
    uid,
    resourceName: resource_name,
  });

  return {
    async lastChange(calendar: string): Promise<number> {
      const row = await db.selectFrom('task_calendar_counters').select('last_change').where('calendar', '=', calendar).executeTakeFirst();
      return Number(row?.last_change ?? 0);
    },

    /** Tasks changed and tasks deleted after change number `after` (0: every task there is, and no tombstone). */
    async since(viewerId: string, calendar: string, after: number): Promise<{ changed: ChangedTask[]; deleted: DeletedTask[] }> {
      const changed = await live(viewerId, calendar).where('task_calendar_changes.change', '>', after).orderBy('task_calendar_changes.change').execute();
      const deleted =
        after === 0
          ? []
          : await db
              .selectFrom('task_calendar_changes')
              .select(['task_id', 'change', 'resource_name'])
              .where('calendar', '=', calendar)
              .where('deleted', '=', 1)
              .where('change', '>', after)
              .execute();
      return {
        changed: changed.map(toChanged),
        deleted: deleted.map((row) => ({ taskId: row.task_id, change: Number(row.change), resourceName: row.resource_name })),
      };
    },

    /** The calendar's tasks of these resource names (a client's multiget, GET or PUT). */
    async named(viewerId: string, calendar: string, names: readonly string[]): Promise<ChangedTask[]> {
      const found: ChangedTask[] = [];
      for (let at = 0; at < names.length; at += NAMES_PER_QUERY) {
        const rows = await live(viewerId, calendar).where('task_calendar_changes.resource_name', 'in', names.slice(at, at + NAMES_PER_QUERY)).execute();
        found.push(...rows.map(toChanged));
      }
      return found;
    },
  };
}
export type TaskChangesStore = ReturnType<typeof createTaskChangesStore>;
