import { randomUUID } from 'node:crypto';
import type { TaskRow } from '../tasks/tasks.store.ts';

/**
 * A stored task row for tests that write the store directly: a daily task due at `time`, with no
 * notices, list or rule, and `fields` over it. One builder, so that a new column is added once.
 */
export function taskRow(ownerId: string, time: number, fields: Partial<TaskRow> = {}): TaskRow {
  return {
    id: randomUUID(),
    owner_id: ownerId,
    name: 'A stored task',
    active: 1,
    create_time: time,
    last_updated: time,
    first_schedule_time: time,
    schedule_end_time: null,
    schedule_type: 'd',
    anchor_time: time,
    occurrence_index: 0,
    schedule_time: time,
    next_notice_time: null,
    notice_set_by_user: 0,
    last_notice_time: null,
    emails: '[]',
    overdue_notice: 1,
    notice_hours: '[]',
    notice_in_workday: 0,
    comment: '',
    notice_error: null,
    list_id: null,
    assignee_id: null,
    rotation: '[]',
    rotation_turn: 0,
    rrule: null,
    repeat_from: 'due',
    checklist: '[]',
    ...fields,
  };
}
