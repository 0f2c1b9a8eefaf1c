import type { Task } from '../../../../contract/tasks.ts';

/** 9 as "9:00". */
const hourText = (hour: number) => `${hour}:00`;

/** "9:00", "9:00 and 17:00", "8:00, 12:00 and 17:00". */
function hoursText(hours: readonly number[]): string {
  const times = hours.map(hourText);
  return times.length <= 1 ? times.join('') : `${times.slice(0, -1).join(', ')} and ${times.at(-1)}`;
}

/**
 * What the notice rules do, in the owner's words (docs/behaviour/tasks-and-notices.md): after the
 * first notice, whether and when another follows while the occurrence is not done.
 */
export function noticeHoursNote(task: Pick<Task, 'overdue_notice' | 'notice_hours' | 'notice_in_workday'>): string {
  if (!task.overdue_notice) return 'One notice at the due time, none after it (Overdue notice is off)';
  const when = task.notice_hours.length === 0 ? 'a day later at the same time' : `at ${hoursText(task.notice_hours)}`;
  return `If not done, remind me again ${when}${task.notice_in_workday ? ', on workdays' : ''}`;
}
