import { DUE_AFTER_END_MESSAGE, END_BEFORE_DUE_MESSAGE, type TaskFieldChange } from '../../../contract/task-requests.ts';
import type { RepeatFrom } from '../../../contract/tasks.ts';
import { AppError } from '../errors.ts';
import { firstNotice, repeatNotice } from './notice-times.ts';
import { resetChecklist } from './checklists.ts';
import { anchorOnDoneDay, nextOccurrence, parseRecurrence } from './recurrence.ts';
import { noticeRulesOf, seriesOf } from './task-record.ts';
import type { ListFieldChange } from './task-list-fields.ts';
import type { TaskPatch, TaskRow } from './tasks.store.ts';

// What a change or a completion writes to a stored task: pure, given the owner's zone and the time.

export const CUSTOM_NEEDS_RULE = 'A custom schedule is set by its repeat rule (rrule)';
const repeatFromOf = (row: TaskRow) => row.repeat_from as RepeatFrom;

const notActive = () => new AppError(409, 'The task is not active');

/** The notice that is next for the current occurrence, given the rules in `row`. */
export function pendingNotice(row: TaskRow, zone: string, now: number): number | null {
  if (row.active !== 1) return null;
  const rules = noticeRulesOf(row, zone);
  return row.last_notice_time === null ? firstNotice(row.schedule_time, rules) : repeatNotice(row.last_notice_time, now, rules);
}

/** The fields one update changes; a change that moves the schedule or its rules recomputes the next notice. */
export function patchFor(change: Exclude<TaskFieldChange, ListFieldChange>, row: TaskRow, zone: string, now: number): TaskPatch {
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
export function completion(row: TaskRow, zone: string, now: number): TaskPatch {
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
    // The next occurrence is the next person's turn (docs/decisions/0048-household-lists.md).
    rotation_turn: row.rotation_turn + 1,
    anchor_time: anchor,
    checklist: resetChecklist(row.checklist),
    occurrence_index: next.index,
    schedule_time: next.time,
    last_notice_time: null,
    notice_set_by_user: 0,
    next_notice_time: pendingNotice(advanced, zone, now),
  };
}
