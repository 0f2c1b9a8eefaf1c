import { randomUUID } from 'node:crypto';
import {
  type CreateTaskBody,
  END_BEFORE_DUE_MESSAGE,
  type TaskAction,
  type TaskFieldChange,
} from '../../../contract/task-requests.ts';
import {
  type DonePage,
  MORE_RESULTS_AFTER_LIMIT,
  NO_MORE_RESULTS,
  type Task,
  type TaskCompletion,
  type TaskPage,
  type TasksExport,
  type TaskStatus,
} from '../../../contract/tasks.ts';
import type { Clock } from '../clock.ts';
import { AppError, notFound } from '../errors.ts';
import { feedWindow, MAX_EVENTS_PER_FEED } from './calendar-events.ts';
import type { ListsStore } from './lists.store.ts';
import { decodeCursor, decodeDoneCursor, encodeCursor, encodeDoneCursor } from './page-cursor.ts';
import { checklistActions } from './checklists.service.ts';
import { firstOccurrence, parseRecurrence } from './recurrence.ts';
import { toCompletion, toDoneEntry, toTask } from './task-record.ts';
import { isListChange, taskListFields } from './task-list-fields.ts';
import { completion, CUSTOM_NEEDS_RULE, patchFor, pendingNotice } from './task-patches.ts';
import { taskCalendar } from './tasks.ical.ts';
import type { ClientIdentity } from './task-change-record.ts';
import type { TaskPatch, TaskRow, TasksStore } from './tasks.store.ts';

type Options = {
  tasks: TasksStore;
  /** The household lists: which the caller may put a task in, and who the people of each are. */
  lists: Pick<ListsStore, 'find' | 'people'>;
  clock: Clock;
  /** The owner's IANA zone, in which all calendar arithmetic happens. */
  zoneOf(ownerId: string): Promise<string>;
  /** Told after any change that may move a notice, so the scheduler wakes at the right time. */
  onScheduleChange(): void;
};

const movedMeanwhile = () => new AppError(409, 'The task changed meanwhile (completed or edited elsewhere); reload it');

export function createTasksService({ tasks, lists, clock, zoneOf, onScheduleChange }: Options) {
  const listFields = taskListFields(lists);
  async function owned(viewerId: string, id: string): Promise<TaskRow> {
    const row = await tasks.find(viewerId, id);
    if (!row) throw notFound('Task');
    return row;
  }

  /** The ids of the people of each list among `rows`, as they are now. */
  async function peopleOf(rows: readonly TaskRow[]): Promise<Map<string, string[]>> {
    const listIds = [...new Set(rows.flatMap((row) => (row.list_id === null ? [] : [row.list_id])))];
    const people = new Map<string, string[]>();
    for (const person of await lists.people(listIds)) people.set(person.list_id, [...(people.get(person.list_id) ?? []), person.id]);
    return people;
  }

  /** The tasks as the API sends them: with their lists' people, and their rules in their owners' zones. */
  async function present(rows: TaskRow[]): Promise<Task[]> {
    const people = await peopleOf(rows);
    const zones = new Map<string, string>();
    for (const owner of new Set(rows.map((row) => row.owner_id))) zones.set(owner, await zoneOf(owner));
    return rows.map((row) => toTask(row, people.get(row.list_id ?? '') ?? [], zones.get(row.owner_id)!));
  }
  const presentOne = async (row: TaskRow) => (await present([row]))[0] as Task;

  return {
    ...checklistActions({ tasks, clock, owned, present: presentOne }),

    /** `identity`: the UID and resource name a CalDAV client gave the task it made. */
    async create(ownerId: string, body: CreateTaskBody, identity?: ClientIdentity): Promise<Task> {
      await listFields.checkNew(ownerId, body);
      const now = clock.now();
      const zone = await zoneOf(ownerId);
      if (body.rrule === null && body.schedule_type === 'c') throw new AppError(400, CUSTOM_NEEDS_RULE);
      const rule = body.rrule === null ? { schedule_type: body.schedule_type, rrule: null } : parseRecurrence(body.rrule, body.repeat_from, body.first_schedule_time, zone);
      // A custom rule's first due time is its first occurrence at or after the time given.
      const first = firstOccurrence({ anchor: body.first_schedule_time, type: rule.schedule_type, rrule: rule.rrule, zone }) ?? body.first_schedule_time;
      if (body.schedule_end_time !== null && body.schedule_end_time < first) throw new AppError(400, END_BEFORE_DUE_MESSAGE);
      const row: TaskRow = {
        id: randomUUID(),
        owner_id: ownerId,
        name: body.name,
        active: 1,
        create_time: now,
        last_updated: now,
        first_schedule_time: body.first_schedule_time,
        schedule_end_time: body.schedule_end_time,
        schedule_type: rule.schedule_type,
        rrule: rule.rrule,
        repeat_from: body.repeat_from,
        anchor_time: body.first_schedule_time,
        occurrence_index: 0,
        schedule_time: first,
        next_notice_time: null,
        notice_set_by_user: 0,
        last_notice_time: null,
        emails: JSON.stringify(body.emails),
        overdue_notice: body.overdue_notice ? 1 : 0,
        notice_hours: JSON.stringify(body.notice_hours),
        notice_in_workday: body.notice_in_workday ? 1 : 0,
        comment: body.comment,
        notice_error: null,
        list_id: body.list_id,
        assignee_id: body.assignee_id,
        rotation: JSON.stringify(body.rotation),
        rotation_turn: 0,
        checklist: '[]',
      };
      row.next_notice_time = pendingNotice(row, zone, now);
      await tasks.insert(row, identity);
      onScheduleChange();
      return presentOne(row);
    },

    async get(viewerId: string, id: string): Promise<Task> {
      return presentOne(await owned(viewerId, id));
    },

    async page(viewerId: string, status: TaskStatus, cursor: string | undefined, pageSize: number, list?: string): Promise<TaskPage> {
      const after = cursor ? decodeCursor(cursor) : undefined;
      // One row more than asked tells whether another page follows.
      const rows = await tasks.page(viewerId, status, after, pageSize + 1, list);
      const more = rows.length > pageSize;
      const shown = rows.slice(0, pageSize);
      const last = shown.at(-1);
      const endCursor = last ? encodeCursor({ scheduleTime: last.schedule_time, id: last.id }) : null;
      return {
        tasks: await present(shown),
        cursor: more && endCursor ? endCursor : NO_MORE_RESULTS,
        queryInfo: { endCursor, moreResults: more ? MORE_RESULTS_AFTER_LIMIT : NO_MORE_RESULTS },
      };
    },

    async act(viewerId: string, id: string, action: TaskAction): Promise<Task> {
      const row = await owned(viewerId, id);
      // A list's task steps through the calendar of whoever made it, whoever acts on it.
      const zone = await zoneOf(row.owner_id);
      const now = clock.now();
      let updated: TaskRow | undefined;
      if (action.type === 'complete') {
        updated = await tasks.complete(viewerId, row, { ...completion(row, zone, now), last_updated: now }, now);
        if (!updated) throw movedMeanwhile();
      } else {
        const { change } = action;
        const patch = isListChange(change) ? await listFields.patchFor(viewerId, change, row) : patchFor(change, row, zone, now);
        updated = await tasks.update(viewerId, id, { ...patch, last_updated: now });
        if (!updated) throw notFound('Task');
      }
      onScheduleChange();
      return presentOne(updated);
    },

    /**
     * Completes the occurrence due at `scheduleTime`, as a notice's Done asks; a task that has moved
     * on meanwhile (completed, edited, deleted) answers 409 and is left as it is.
     */
    async completeOccurrence(ownerId: string, id: string, scheduleTime: number): Promise<Task> {
      const row = await tasks.find(ownerId, id);
      if (!row || row.active !== 1 || row.schedule_time !== scheduleTime) throw movedMeanwhile();
      const now = clock.now();
      // Completed only at the occurrence read here: one that moves on meanwhile is left as it is.
      const updated = await tasks.complete(ownerId, row, { ...completion(row, await zoneOf(row.owner_id), now), last_updated: now }, now);
      if (!updated) throw movedMeanwhile();
      onScheduleChange();
      return presentOne(updated);
    },

    /**
     * Several field changes at once, applied in order as one update (a CalDAV client's PUT); with
     * `expectedChange`, only to the task as it was at that change (412 otherwise).
     */
    async edit(viewerId: string, id: string, changes: readonly TaskFieldChange[], expectedChange?: number): Promise<Task> {
      const row = await owned(viewerId, id);
      if (changes.length === 0) return presentOne(row);
      const zone = await zoneOf(row.owner_id);
      const now = clock.now();
      let patched = row;
      let patch: TaskPatch = {};
      for (const change of changes) {
        const step = isListChange(change) ? await listFields.patchFor(viewerId, change, patched) : patchFor(change, patched, zone, now);
        patch = { ...patch, ...step };
        patched = { ...patched, ...step } as TaskRow;
      }
      const updated = await tasks.update(viewerId, id, { ...patch, last_updated: now }, expectedChange);
      if (!updated) throw notFound('Task');
      onScheduleChange();
      return presentOne(updated);
    },

    /** The Done list: every occurrence completed, of one-off and repeating tasks alike, the latest first. */
    async done(viewerId: string, cursor: string | undefined, pageSize: number): Promise<DonePage> {
      const after = cursor ? decodeDoneCursor(cursor) : undefined;
      const rows = await tasks.done(viewerId, after, pageSize + 1);
      const shown = rows.slice(0, pageSize);
      const last = shown.at(-1);
      return {
        done: shown.map(toDoneEntry),
        cursor: rows.length > pageSize && last ? encodeDoneCursor({ completedAt: Number(last.completed_at), id: Number(last.id) }) : NO_MORE_RESULTS,
      };
    },

    /** The task's completions, newest first. */
    async completions(viewerId: string, id: string): Promise<TaskCompletion[]> {
      await owned(viewerId, id);
      return (await tasks.completions(viewerId, id)).map(toCompletion);
    },

    /** Every task of the owner with its whole completion history: the account's export, taken before deleting it. */
    async exportAll(ownerId: string): Promise<TasksExport> {
      const { tasks: rows, completions } = await tasks.everything(ownerId);
      const history = new Map<string, TaskCompletion[]>();
      for (const completion of completions) {
        const list = history.get(completion.task_id) ?? [];
        list.push(toCompletion(completion));
        history.set(completion.task_id, list);
      }
      return {
        exported_at: new Date(clock.now()).toISOString(),
        tasks: (await present(rows)).map((task) => ({ ...task, completions: history.get(task.id) ?? [] })),
      };
    },

    /** The owner's tasks as an iCalendar feed (tasks.ical.ts), as of now. */
    async calendar(viewerId: string, taskUrl: (id: string) => string): Promise<string> {
      const zone = await zoneOf(viewerId);
      const now = clock.now();
      const window = feedWindow(now, zone);
      const { tasks: rows, completions } = await tasks.calendar(viewerId, window.from, window.to, MAX_EVENTS_PER_FEED);
      return taskCalendar({ tasks: rows, completions, zone, now, taskUrl });
    },

    /** Deletes the task, its pending notices and its history (see the store for a notice being sent). */
    async delete(viewerId: string, id: string): Promise<void> {
      if (!(await tasks.delete(viewerId, id))) throw notFound('Task');
      onScheduleChange();
    },
  };
}
export type TasksService = ReturnType<typeof createTasksService>;
