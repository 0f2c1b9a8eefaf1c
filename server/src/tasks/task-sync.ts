import { firstNotice } from './notice-times.ts';
import { rruleOf } from './recurrence.ts';
import { noticeRulesOf } from './task-record.ts';
import type { ChangedTask, TaskChangesStore } from './task-changes.store.ts';

/**
 * A task as a CalDAV client sees it. Only what the task's own changes move is here (the scheduler's
 * bookkeeping of sent notices is not), so the same change number always shows the same task.
 */
export type SyncedTask = {
  id: string;
  uid: string;
  resourceName: string;
  /** The number of the task's latest change. */
  change: number;
  name: string;
  comment: string;
  active: boolean;
  /** The current occurrence's due time. */
  due: number;
  /** The task's rule as an RRULE value without its end (tasks/recurrence.ts); null for a one-off task. */
  rrule: string | null;
  end: number | null;
  created: number;
  lastModified: number;
  /** The current occurrence's first notice; null once the task is done. */
  notice: number | null;
};

type Options = { changes: TaskChangesStore; zoneOf(ownerId: string): Promise<string> };

/** The reads of CalDAV's sync (caldav/): every task, or what changed since a change number. */
export function createTaskSync({ changes, zoneOf }: Options) {
  const synced = ({ task, uid, resourceName, change }: ChangedTask, zone: string): SyncedTask => ({
    id: task.id,
    uid,
    resourceName,
    change,
    name: task.name,
    comment: task.comment,
    active: task.active === 1,
    due: task.schedule_time,
    rrule: rruleOf(task, zone),
    end: task.schedule_end_time,
    created: task.create_time,
    lastModified: task.last_updated,
    notice: task.active === 1 ? firstNotice(task.schedule_time, noticeRulesOf(task, zone)) : null,
  });

  return {
    zoneOf,

    /**
     * The owner's change number now, and the tasks changed and deleted after `after` (0: all the
     * tasks). The number is read first: a change committed meanwhile is then sent again at the
     * next sync rather than never.
     */
    async since(ownerId: string, after: number): Promise<{ lastChange: number; changed: SyncedTask[]; deleted: string[] }> {
      const lastChange = await changes.lastChange(ownerId);
      const zone = await zoneOf(ownerId);
      const found = await changes.since(ownerId, after);
      return { lastChange, changed: found.changed.map((row) => synced(row, zone)), deleted: found.deleted.map((row) => row.resourceName) };
    },

    lastChange: (ownerId: string): Promise<number> => changes.lastChange(ownerId),

    async named(ownerId: string, names: readonly string[]): Promise<SyncedTask[]> {
      const zone = await zoneOf(ownerId);
      return (await changes.named(ownerId, names)).map((row) => synced(row, zone));
    },
  };
}
export type TaskSync = ReturnType<typeof createTaskSync>;
