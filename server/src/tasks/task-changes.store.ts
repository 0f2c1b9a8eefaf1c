import { type Kysely, sql } from 'kysely';
import { AppError } from '../errors.ts';
import type { Database } from '../storage/schema.ts';
import type { TaskRow } from './tasks.store.ts';

/** The UID and resource name a CalDAV client gave a task; a task made elsewhere has its id and `<id>.ics`. */
export type ClientIdentity = { uid: string; resourceName: string };

export type ChangedTask = { task: TaskRow; change: number; uid: string; resourceName: string };
export type DeletedTask = { taskId: string; change: number; resourceName: string };

/** Bound parameters per query stay far below both databases' limits. */
const NAMES_PER_QUERY = 500;

/** A write made against a version of the task that is no longer its latest (CalDAV's If-Match). */
export const changedMeanwhile = () => new AppError(412, 'The task has changed since it was read; read it again');

/**
 * Moves the owner's change counter and marks the task with the new number, in the caller's
 * transaction: on PostgreSQL the counter's row stays locked until the change commits, so a change
 * with a lower number is never committed after one with a higher number has been read. With
 * `expectedChange`, the task must still be at that change, or this throws (412) and the caller's
 * transaction rolls back: of two writes made against the same version, the second waits for the
 * first's row lock, then finds the number moved.
 */
export async function recordTaskChange(
  db: Kysely<Database>,
  ownerId: string,
  taskId: string,
  { deleted = false, identity, expectedChange }: { deleted?: boolean; identity?: ClientIdentity; expectedChange?: number } = {},
): Promise<void> {
  const { last_change: change } = await db
    .insertInto('task_change_counters')
    .values({ owner_id: ownerId, last_change: 1 })
    .onConflict((conflict) => conflict.column('owner_id').doUpdateSet({ last_change: sql<number>`task_change_counters.last_change + 1` }))
    .returning('last_change')
    .executeTakeFirstOrThrow();
  if (expectedChange !== undefined) {
    const moved = await db
      .updateTable('task_changes')
      .set({ change: Number(change), deleted: deleted ? 1 : 0 })
      .where('owner_id', '=', ownerId)
      .where('task_id', '=', taskId)
      .where('change', '=', expectedChange)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw changedMeanwhile();
    return;
  }
  // A client may give a new task the name of one it deleted: the tombstone gives way.
  if (identity) {
    await db.deleteFrom('task_changes').where('owner_id', '=', ownerId).where('resource_name', '=', identity.resourceName).where('deleted', '=', 1).execute();
  }
  await db
    .insertInto('task_changes')
    .values({
      owner_id: ownerId,
      task_id: taskId,
      change: Number(change),
      deleted: deleted ? 1 : 0,
      uid: identity?.uid ?? taskId,
      resource_name: identity?.resourceName ?? `${taskId}.ics`,
    })
    .onConflict((conflict) => conflict.columns(['owner_id', 'task_id']).doUpdateSet({ change: Number(change), deleted: deleted ? 1 : 0 }))
    .execute();
}

/** What CalDAV reads: the owner's change counter, and tasks and tombstones by change number or by name. */
export function createTaskChangesStore(db: Kysely<Database>) {
  const live = (ownerId: string) =>
    db
      .selectFrom('task_changes')
      .innerJoin('tasks', (join) => join.onRef('tasks.id', '=', 'task_changes.task_id').onRef('tasks.owner_id', '=', 'task_changes.owner_id'))
      .selectAll('tasks')
      .select(['task_changes.change', 'task_changes.uid', 'task_changes.resource_name'])
      .where('task_changes.owner_id', '=', ownerId)
      .where('task_changes.deleted', '=', 0);

  const toChanged = ({ change, uid, resource_name, ...task }: TaskRow & { change: number; uid: string; resource_name: string }): ChangedTask => ({
    task,
    change: Number(change),
    uid,
    resourceName: resource_name,
  });

  return {
    async lastChange(ownerId: string): Promise<number> {
      const row = await db.selectFrom('task_change_counters').select('last_change').where('owner_id', '=', ownerId).executeTakeFirst();
      return Number(row?.last_change ?? 0);
    },

    /** Tasks changed and tasks deleted after change number `after` (0: every task there is, and no tombstone). */
    async since(ownerId: string, after: number): Promise<{ changed: ChangedTask[]; deleted: DeletedTask[] }> {
      const changed = await live(ownerId).where('task_changes.change', '>', after).orderBy('task_changes.change').execute();
      const deleted =
        after === 0
          ? []
          : await db
              .selectFrom('task_changes')
              .select(['task_id', 'change', 'resource_name'])
              .where('owner_id', '=', ownerId)
              .where('deleted', '=', 1)
              .where('change', '>', after)
              .execute();
      return {
        changed: changed.map(toChanged),
        deleted: deleted.map((row) => ({ taskId: row.task_id, change: Number(row.change), resourceName: row.resource_name })),
      };
    },

    /** The owner's tasks of these resource names (a client's multiget, GET or PUT). */
    async named(ownerId: string, names: readonly string[]): Promise<ChangedTask[]> {
      const found: ChangedTask[] = [];
      for (let at = 0; at < names.length; at += NAMES_PER_QUERY) {
        const rows = await live(ownerId).where('task_changes.resource_name', 'in', names.slice(at, at + NAMES_PER_QUERY)).execute();
        found.push(...rows.map(toChanged));
      }
      return found;
    },
  };
}
export type TaskChangesStore = ReturnType<typeof createTaskChangesStore>;
