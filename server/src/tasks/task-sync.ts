import type { ChecklistItem } from '../../../contract/tasks.ts';
import { parseChecklist } from './checklists.ts';
import { firstNotice } from './notice-times.ts';
import { rruleOf } from './recurrence.ts';
import { noticeRulesOf } from './task-record.ts';
import { calendarOfTask } from './task-change-record.ts';
import type { ChangedTask, TaskChangesStore } from './task-changes.store.ts';

export { itemResourceName, itemUid, taskNamesOfItem } from './task-change-record.ts';

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
  /** The current occurrence's checklist; each item is a calendar object of its own. */
  checklist: ChecklistItem[];
};

/** A calendar of a user's: their own unlisted tasks (`listId` null), or a household list they own or are a member of. */
export type TaskCalendar = { key: string; listId: string | null; name: string };

type Options = {
  changes: TaskChangesStore;
  zoneOf(ownerId: string): Promise<string>;
  /** The lists the viewer owns or is a member of, as they are now. */
  listsOf(viewerId: string): Promise<{ id: string; name: string }[]>;
};

/** The reads of CalDAV's sync (caldav/): every task, or what changed since a change number. */
export function createTaskSync({ changes, zoneOf, listsOf }: Options) {
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
    checklist: parseChecklist(task.checklist),
  });

  return {
    zoneOf,

    /** The viewer's calendars: their own tasks first, then their lists by name. */
    async calendarsOf(viewerId: string): Promise<TaskCalendar[]> {
      const lists = await listsOf(viewerId);
      return [
        { key: calendarOfTask({ owner_id: viewerId, list_id: null }), listId: null, name: 'Tasks' },
        ...lists.map((list) => ({ key: calendarOfTask({ owner_id: viewerId, list_id: list.id }), listId: list.id, name: list.name })),
      ];
    },

    /**
     * The calendar's change number now, and the tasks changed and deleted after `after` (0: all
     * the tasks). The number is read first: a change committed meanwhile is then sent again at the
     * next sync rather than never. Times are the viewer's zone's, a list's tasks too.
     */
    async since(viewerId: string, calendar: TaskCalendar, after: number): Promise<{ lastChange: number; changed: SyncedTask[]; deleted: string[] }> {
      const lastChange = await changes.lastChange(calendar.key);
      const zone = await zoneOf(viewerId);
      const found = await changes.since(viewerId, calendar.key, after);
      return { lastChange, changed: found.changed.map((row) => synced(row, zone)), deleted: found.deleted.map((row) => row.resourceName) };
    },

    lastChange: (calendar: TaskCalendar): Promise<number> => changes.lastChange(calendar.key),

    async named(viewerId: string, calendar: TaskCalendar, names: readonly string[]): Promise<SyncedTask[]> {
      const zone = await zoneOf(viewerId);
      return (await changes.named(viewerId, calendar.key, names)).map((row) => synced(row, zone));
    },
  };
}
export type TaskSync = ReturnType<typeof createTaskSync>;
