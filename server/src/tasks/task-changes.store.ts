import { type Kysely, sql } from 'kysely';
import { AppError } from '../errors.ts';
import type { Database } from '../storage/schema.ts';
import { taskVisibleTo } from './lists.store.ts';
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
 * A checklist item is a calendar object of its own, next to its task's (RFC 5545 RELATED-TO): its
 * UID and resource name follow from the task's. When an item leaves a calendar (removed, or its
 * task deleted or moved) it leaves a tombstone there under `<task id>/item/<item id>`, a row no
 * task joins, so that a client syncing later learns of it.
 */
const ITEM_MARK = '/item/';
export const itemUid = (taskUid: string, itemId: string) => `${taskUid}-item-${itemId}`;
export const itemResourceName = (taskResourceName: string, itemId: string) => `${taskResourceName.replace(/\.ics$/i, '')}-item-${itemId}.ics`;

/** The resource names the task of an item's resource name may have (with `.ics` or without); null for a task's own name. */
export function taskNamesOfItem(resourceName: string): { taskNames: string[]; itemId: string } | null {
  const match = /^(.+)-item-([\w-]{1,64})\.ics$/.exec(resourceName);
  return match ? { taskNames: [`${match[1]!}.ics`, match[1]!], itemId: match[2]! } : null;
}

async function recordItemsGone(db: Kysely<Database>, calendar: string, task: { id: string; owner_id: string }, itemIds: readonly string[], change: number): Promise<void> {
  if (itemIds.length === 0) return;
  const row = await db.selectFrom('task_calendar_changes').select(['uid', 'resource_name']).where('calendar', '=', calendar).where('task_id', '=', task.id).executeTakeFirst();
  if (!row) return;
  await db
    .insertInto('task_calendar_changes')
    .values(
      itemIds.map((itemId) => ({
        calendar,
        owner_id: task.owner_id,
        task_id: `${task.id}${ITEM_MARK}${itemId}`,
        change,
        deleted: 1,
        uid: itemUid(row.uid, itemId),
        resource_name: itemResourceName(row.resource_name, itemId),
      })),
    )
    .onConflict((conflict) => conflict.columns(['calendar', 'task_id']).doUpdateSet({ change, deleted: 1 }))
    .execute();
}

/** The calendar a task is in (its change counter's key): its list's, or its owner's own tasks. */
export const calendarOfTask = (task: { owner_id: string; list_id: string | null }): string =>
  task.list_id === null ? task.owner_id : `list:${task.list_id}`;

async function nextChange(db: Kysely<Database>, calendar: string): Promise<number> {
  const { last_change: change } = await db
    .insertInto('task_calendar_counters')
    .values({ calendar, last_change: 1 })
    .onConflict((conflict) => conflict.column('calendar').doUpdateSet({ last_change: sql<number>`task_calendar_counters.last_change + 1` }))
    .returning('last_change')
    .executeTakeFirstOrThrow();
  return Number(change);
}

/**
 * Moves the change counter of the task's calendar (its list's, whoever of the list made the
 * change, or its owner's) and marks the task with the new number, in the caller's transaction: on
 * PostgreSQL the counter's row stays locked until the change commits, so a change with a lower
 * number is never committed after one with a higher number has been read. With `expectedChange`,
 * the task must still be at that change, or this throws (412) and the caller's transaction rolls
 * back: of two writes made against the same version, the second waits for the first's row lock,
 * then finds the number moved. With `movedFrom` (the calendar the task was in before this change),
 * the task leaves a tombstone there and keeps its UID and name in the new one. `goneItems`: the
 * checklist items that leave the calendar the change is marked in (removed, or all of a task deleted
 * or moved).
 */
export async function recordTaskChange(
  db: Kysely<Database>,
  task: { id: string; owner_id: string; list_id: string | null },
  {
    deleted = false,
    identity,
    expectedChange,
    movedFrom,
    goneItems = [],
  }: { deleted?: boolean; identity?: ClientIdentity; expectedChange?: number; movedFrom?: string; goneItems?: readonly string[] } = {},
): Promise<void> {
  const calendar = calendarOfTask(task);
  const from = movedFrom !== undefined && movedFrom !== calendar ? movedFrom : null;
  const markedIn = from ?? calendar;
  const marked = await nextChange(db, markedIn);
  let kept = identity;
  if (expectedChange !== undefined || from !== null) {
    const moved = await db
      .updateTable('task_calendar_changes')
      .set({ change: marked, deleted: deleted || from !== null ? 1 : 0 })
      .where('calendar', '=', markedIn)
      .where('task_id', '=', task.id)
      .$if(expectedChange !== undefined, (query) => query.where('change', '=', expectedChange ?? 0))
      .returning(['uid', 'resource_name'])
      .executeTakeFirst();
    if (!moved && expectedChange !== undefined) throw changedMeanwhile();
    if (moved && from !== null) kept = { uid: moved.uid, resourceName: moved.resource_name };
  }
  await recordItemsGone(db, markedIn, task, goneItems, marked);
  if (expectedChange !== undefined && from === null) return;
  const change = from === null ? marked : await nextChange(db, calendar);
  // A client may give a new task the name of one it deleted: the tombstone gives way.
  if (kept) {
    await db.deleteFrom('task_calendar_changes').where('calendar', '=', calendar).where('resource_name', '=', kept.resourceName).where('deleted', '=', 1).execute();
  }
  // Back in a calendar it left, its items are there again: their tombstones there go.
  if (from !== null) await db.deleteFrom('task_calendar_changes').where('calendar', '=', calendar).where('task_id', 'like', `${task.id}${ITEM_MARK}%`).execute();
  await db
    .insertInto('task_calendar_changes')
    .values({
      calendar,
      owner_id: task.owner_id,
      task_id: task.id,
      change,
      deleted: deleted ? 1 : 0,
      uid: kept?.uid ?? task.id,
      resource_name: kept?.resourceName ?? `${task.id}.ics`,
    })
    .onConflict((conflict) => conflict.columns(['calendar', 'task_id']).doUpdateSet({ change, deleted: deleted ? 1 : 0 }))
    .execute();
}

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
