import { type Kysely, sql } from 'kysely';
import { AppError } from '../errors.ts';
import type { Database } from '../storage/schema.ts';

// The write side of CalDAV's sync tokens, apart from its reads (task-changes.store.ts): every write
// of a task records its change here, in the write's own transaction.

/** The UID and resource name a CalDAV client gave a task; a task made elsewhere has its id and `<id>.ics`. */
export type ClientIdentity = { uid: string; resourceName: string };

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
