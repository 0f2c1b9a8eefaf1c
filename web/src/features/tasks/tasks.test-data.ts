import type { Task } from '../../../../contract/tasks.ts';

/** An active daily task, with whatever else a test cares about. */
export function aTask(id: string, fields: Partial<Task> = {}): Task {
  return {
    id,
    name: `Task ${id}`,
    active: true,
    create_time: '2026-01-05T12:00:00.000Z',
    last_updated: '2026-01-05T12:00:00.000Z',
    first_schedule_time: '2026-01-06T09:00:00.000Z',
    schedule_end_time: null,
    schedule_type: 'd',
    rrule: 'FREQ=DAILY',
    repeat_from: 'due',
    schedule_time: '2026-01-06T09:00:00.000Z',
    next_notice_time: '2026-01-06T09:00:00.000Z',
    emails: [],
    overdue_notice: true,
    notice_hours: [],
    notice_in_workday: false,
    comment: '',
    notice_error: null,
    list_id: null,
    assignee_id: null,
    rotation: [],
    turn_id: null,
    checklist: [],
    ...fields,
  };
}
