import type { DoneEntry, RepeatFrom, ScheduleType, Task, TaskCompletion } from '../../../contract/tasks.ts';
import { parseChecklist } from './checklists.ts';
import { currentPeople, turnOf } from './lists.turn.ts';
import type { NoticeRules } from './notice-times.ts';
import { rruleOf, type Series } from './recurrence.ts';
import type { CompletionRow, DoneRow, TaskRow } from './tasks.store.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/**
 * A stored row as the API sends it; `people` are those of its list now, whom its assignee and
 * rotation may name; `zone`, the owner's, gives the six codes' rules their days.
 */
export function toTask(row: TaskRow, people: readonly string[], zone: string): Task {
  const { assignee, rotation } = currentPeople(row, people);
  return {
    id: row.id,
    name: row.name,
    active: row.active === 1,
    create_time: iso(row.create_time),
    last_updated: iso(row.last_updated),
    first_schedule_time: iso(row.first_schedule_time),
    schedule_end_time: isoOrNull(row.schedule_end_time),
    schedule_type: row.schedule_type as ScheduleType,
    rrule: rruleOf(row, zone),
    repeat_from: row.repeat_from as RepeatFrom,
    schedule_time: iso(row.schedule_time),
    next_notice_time: isoOrNull(row.next_notice_time),
    emails: JSON.parse(row.emails) as string[],
    overdue_notice: row.overdue_notice === 1,
    notice_hours: JSON.parse(row.notice_hours) as number[],
    notice_in_workday: row.notice_in_workday === 1,
    comment: row.comment,
    notice_error: row.notice_error,
    list_id: row.list_id,
    assignee_id: assignee,
    rotation,
    turn_id: turnOf(row, people),
    checklist: parseChecklist(row.checklist),
  };
}

export function toCompletion(row: CompletionRow): TaskCompletion {
  return {
    occurrence: Number(row.occurrence_index),
    due_time: iso(Number(row.due_time)),
    completed_at: iso(Number(row.completed_at)),
    checklist: row.checklist === null ? null : parseChecklist(row.checklist),
  };
}

export function toDoneEntry(row: DoneRow): DoneEntry {
  return { ...toCompletion(row), task_id: row.task_id, name: row.name, schedule_type: row.schedule_type as ScheduleType };
}

export function seriesOf(row: Pick<TaskRow, 'anchor_time' | 'schedule_type' | 'rrule'>, zone: string): Series {
  return { anchor: row.anchor_time, type: row.schedule_type as ScheduleType, rrule: row.rrule, zone };
}

export function noticeRulesOf(row: Pick<TaskRow, 'overdue_notice' | 'notice_hours' | 'notice_in_workday'>, zone: string): NoticeRules {
  return {
    zone,
    overdueNotice: row.overdue_notice === 1,
    noticeHours: JSON.parse(row.notice_hours) as number[],
    noticeInWorkday: row.notice_in_workday === 1,
  };
}
