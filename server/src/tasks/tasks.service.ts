import { randomUUID } from 'node:crypto';
import {
  type CreateTaskBody,
  DUE_AFTER_END_MESSAGE,
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
  type RepeatFrom,
  type TaskPage,
  type TasksExport,
  type TaskStatus,
} from '../../../contract/tasks.ts';
import type { Clock } from '../clock.ts';
import { AppError, notFound } from '../errors.ts';
import { feedWindow, MAX_EVENTS_PER_FEED } from './calendar-events.ts';
import { firstNotice, repeatNotice } from './notice-times.ts';
import { decodeCursor, decodeDoneCursor, encodeCursor, encodeDoneCursor } from './page-cursor.ts';
import { checklistActions } from './checklists.service.ts';
import { resetChecklist } from './checklists.ts';
import { anchorOnDoneDay, firstOccurrence, nextOccurrence, parseRecurrence } from './recurrence.ts';
import { noticeRulesOf, seriesOf, toCompletion, toDoneEntry, toTask } from './task-record.ts';
import { taskCalendar } from './tasks.ical.ts';
import type { TaskPatch, TaskRow, TasksStore } from './tasks.store.ts';

type Options = {
  tasks: TasksStore;
  clock: Clock;
  /** The owner's IANA zone, in which all calendar arithmetic happens. */
  zoneOf(ownerId: string): Promise<string>;
  /** Told after any change that may move a notice, so the scheduler wakes at the right time. */
  onScheduleChange(): void;
};

const CUSTOM_NEEDS_RULE = 'A custom schedule is set by its repeat rule (rrule)';
const repeatFromOf = (row: TaskRow) => row.repeat_from as RepeatFrom;

const notActive = () => new AppError(409, 'The task is not active');
const movedMeanwhile = () => new AppError(409, 'The task changed meanwhile (completed or edited elsewhere); reload it');

/** The notice that is next for the current occurrence, given the rules in `row`. */
function pendingNotice(row: TaskRow, zone: string, now: number): number | null {
  if (row.active !== 1) return null;
  const rules = noticeRulesOf(row, zone);
  return row.last_notice_time === null ? firstNotice(row.schedule_time, rules) : repeatNotice(row.last_notice_time, now, rules);
}

/** The fields one update changes; a change that moves the schedule or its rules recomputes the next notice. */
function patchFor(change: TaskFieldChange, row: TaskRow, zone: string, now: number): TaskPatch {
  switch (change.key) {
    case 'name':
    case 'comment':
      return { [change.key]: change.value };
    case 'schedule_end_time':
      if (change.value !== null && change.value < row.schedule_time) throw new AppError(400, END_BEFORE_DUE_MESSAGE);
      return { schedule_end_time: change.value };
    case 'emails':
      return { emails: JSON.stringify(change.value) };
    case 'schedule_time': {
      if (row.schedule_end_time !== null && change.value > row.schedule_end_time) throw new AppError(400, DUE_AFTER_END_MESSAGE);
      // A typed due time re-anchors the series (docs/behaviour/tasks-and-notices.md).
      const moved = { anchor_time: change.value, occurrence_index: 0, schedule_time: change.value, last_notice_time: null, notice_set_by_user: 0 };
      return { ...moved, next_notice_time: pendingNotice({ ...row, ...moved }, zone, now) };
    }
    case 'schedule_type':
      // A custom task's type saved as it is changes nothing; another task cannot become custom without its rule.
      if (change.value === 'c') {
        if (row.schedule_type === 'c') return {};
        throw new AppError(400, CUSTOM_NEEDS_RULE);
      }
      // The current due time stays; later occurrences step from it by the new type.
      return { schedule_type: change.value, rrule: null, anchor_time: row.schedule_time, occurrence_index: 0 };
    case 'rrule': {
      // As for the type: the current due time stays, later occurrences follow the rule from it.
      const rule = change.value === null ? { schedule_type: 'o', rrule: null } : parseRecurrence(change.value, repeatFromOf(row), row.schedule_time, zone);
      return { ...rule, anchor_time: row.schedule_time, occurrence_index: 0 };
    }
    case 'repeat_from':
      if (change.value === 'done' && row.rrule !== null) parseRecurrence(row.rrule, 'done', row.schedule_time, zone);
      return { repeat_from: change.value };
    case 'next_notice_time':
      if (row.active !== 1) throw notActive();
      return { next_notice_time: change.value, notice_set_by_user: 1 };
    case 'notice_hours':
    case 'overdue_notice':
    case 'notice_in_workday': {
      const stored = change.key === 'notice_hours' ? JSON.stringify(change.value) : change.value ? 1 : 0;
      // A notice the owner set stays where they put it; the rules apply from the next one on.
      if (row.notice_set_by_user === 1) return { [change.key]: stored };
      const changed = { ...row, [change.key]: stored };
      return { [change.key]: stored, next_notice_time: pendingNotice(changed, zone, now) };
    }
  }
}

/**
 * Complete: on to the first occurrence later than both this one and now, or inactive (done) past
 * the end — the series' own, or the calendar's for a task stored with a time it cannot hold; a
 * one-off task has no other occurrence, so it is done.
 */
function completion(row: TaskRow, zone: string, now: number): TaskPatch {
  if (row.active !== 1) throw notActive();
  const series = seriesOf(row, zone);
  // Repeating from when it was done: the series starts again on that day, and goes on from there.
  const fromDone = row.repeat_from === 'done' && row.schedule_type !== 'o';
  const anchor = fromDone ? anchorOnDoneDay(series, now) : row.anchor_time;
  const next = fromDone
    ? nextOccurrence({ ...series, anchor }, 0, Math.max(anchor, now))
    : nextOccurrence(series, row.occurrence_index, Math.max(row.schedule_time, now));
  if (next === null || (row.schedule_end_time !== null && next.time > row.schedule_end_time)) {
    return { active: 0, next_notice_time: null, last_notice_time: null, notice_set_by_user: 0 };
  }
  const advanced = { ...row, occurrence_index: next.index, schedule_time: next.time, last_notice_time: null };
  return {
    anchor_time: anchor,
    checklist: resetChecklist(row.checklist),
    occurrence_index: next.index,
    schedule_time: next.time,
    last_notice_time: null,
    notice_set_by_user: 0,
    next_notice_time: pendingNotice(advanced, zone, now),
  };
}

export function createTasksService({ tasks, clock, zoneOf, onScheduleChange }: Options) {
  async function owned(ownerId: string, id: string): Promise<TaskRow> {
    const row = await tasks.find(ownerId, id);
    if (!row) throw notFound('Task');
    return row;
  }

  return {
    ...checklistActions({ tasks, clock, zoneOf, owned }),

    async create(ownerId: string, body: CreateTaskBody): Promise<Task> {
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
        checklist: '[]',
      };
      row.next_notice_time = pendingNotice(row, zone, now);
      await tasks.insert(row);
      onScheduleChange();
      return toTask(row, zone);
    },

    async get(ownerId: string, id: string): Promise<Task> {
      return toTask(await owned(ownerId, id), await zoneOf(ownerId));
    },

    async page(ownerId: string, status: TaskStatus, cursor: string | undefined, pageSize: number): Promise<TaskPage> {
      const after = cursor ? decodeCursor(cursor) : undefined;
      // One row more than asked tells whether another page follows.
      const rows = await tasks.page(ownerId, status, after, pageSize + 1);
      const zone = await zoneOf(ownerId);
      const more = rows.length > pageSize;
      const shown = rows.slice(0, pageSize);
      const last = shown.at(-1);
      const endCursor = last ? encodeCursor({ scheduleTime: last.schedule_time, id: last.id }) : null;
      return {
        tasks: shown.map((row) => toTask(row, zone)),
        cursor: more && endCursor ? endCursor : NO_MORE_RESULTS,
        queryInfo: { endCursor, moreResults: more ? MORE_RESULTS_AFTER_LIMIT : NO_MORE_RESULTS },
      };
    },

    async act(ownerId: string, id: string, action: TaskAction): Promise<Task> {
      const row = await owned(ownerId, id);
      const zone = await zoneOf(ownerId);
      const now = clock.now();
      let updated: TaskRow | undefined;
      if (action.type === 'complete') {
        updated = await tasks.complete(row, { ...completion(row, zone, now), last_updated: now }, now);
        if (!updated) throw movedMeanwhile();
      } else {
        updated = await tasks.update(ownerId, id, { ...patchFor(action.change, row, zone, now), last_updated: now });
        if (!updated) throw notFound('Task');
      }
      onScheduleChange();
      return toTask(updated, zone);
    },

    /** The Done list: every occurrence completed, of one-off and repeating tasks alike, the latest first. */
    async done(ownerId: string, cursor: string | undefined, pageSize: number): Promise<DonePage> {
      const after = cursor ? decodeDoneCursor(cursor) : undefined;
      const rows = await tasks.done(ownerId, after, pageSize + 1);
      const shown = rows.slice(0, pageSize);
      const last = shown.at(-1);
      return {
        done: shown.map(toDoneEntry),
        cursor: rows.length > pageSize && last ? encodeDoneCursor({ completedAt: Number(last.completed_at), id: Number(last.id) }) : NO_MORE_RESULTS,
      };
    },

    /** The task's completions, newest first. */
    async completions(ownerId: string, id: string): Promise<TaskCompletion[]> {
      await owned(ownerId, id);
      return (await tasks.completions(ownerId, id)).map(toCompletion);
    },

    /** Every task of the owner with its whole completion history: the account's export, taken before deleting it. */
    async exportAll(ownerId: string): Promise<TasksExport> {
      const { tasks: rows, completions } = await tasks.everything(ownerId);
      const zone = await zoneOf(ownerId);
      const history = new Map<string, TaskCompletion[]>();
      for (const completion of completions) {
        const list = history.get(completion.task_id) ?? [];
        list.push(toCompletion(completion));
        history.set(completion.task_id, list);
      }
      return {
        exported_at: new Date(clock.now()).toISOString(),
        tasks: rows.map((row) => ({ ...toTask(row, zone), completions: history.get(row.id) ?? [] })),
      };
    },

    /** The owner's tasks as an iCalendar feed (tasks.ical.ts), as of now. */
    async calendar(ownerId: string, taskUrl: (id: string) => string): Promise<string> {
      const zone = await zoneOf(ownerId);
      const now = clock.now();
      const window = feedWindow(now, zone);
      const { tasks: rows, completions } = await tasks.calendar(ownerId, window.from, window.to, MAX_EVENTS_PER_FEED);
      return taskCalendar({ tasks: rows, completions, zone, now, taskUrl });
    },

    /** Deletes the task, its pending notices and its history (see the store for a notice being sent). */
    async delete(ownerId: string, id: string): Promise<void> {
      if (!(await tasks.delete(ownerId, id))) throw notFound('Task');
      onScheduleChange();
    },
  };
}
export type TasksService = ReturnType<typeof createTasksService>;
