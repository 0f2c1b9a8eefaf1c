import { DateTime } from 'luxon';
import { calendarDaysBetween, millisOf } from './local-calendar.ts';

/** What decides when a task's notices go (docs/behaviour/tasks-and-notices.md). */
export type NoticeRules = {
  zone: string;
  overdueNotice: boolean;
  /** Local hours, sorted. */
  noticeHours: readonly number[];
  noticeInWorkday: boolean;
};

const SATURDAY = 6;
const NEXT_MONDAY = 8;
// Sorted hours recur daily, so a match lies within a week even with weekends skipped.
const MAX_DAYS_AHEAD = 8;

const isWeekend = (time: DateTime) => time.weekday >= SATURDAY;

// Every function here returns null for a time the calendar cannot hold (local-calendar.ts): a
// task stored with such a time gets no further notice rather than a notice at a wrong time.

/** The first notice of an occurrence: at its due time, moved past a weekend for workday tasks. */
export function firstNotice(scheduleTime: number, rules: NoticeRules): number | null {
  const time = DateTime.fromMillis(scheduleTime, { zone: rules.zone });
  if (!time.isValid) return null;
  return millisOf(rules.noticeInWorkday && isWeekend(time) ? time.plus({ days: NEXT_MONDAY - time.weekday }) : time);
}

/**
 * The same local time as the notice sent, on the first later day after `after` (a workday for
 * workday tasks). The days between are counted, not stepped through, so a notice sent any number
 * of years ago costs the same; the count lands on the date of `after`, from which at most one day
 * and a weekend remain.
 */
function sameTimeOnLaterDay(sent: number, after: number, rules: NoticeRules): number | null {
  const sentAt = DateTime.fromMillis(sent, { zone: rules.zone });
  const daysBetween = calendarDaysBetween(sentAt, DateTime.fromMillis(after, { zone: rules.zone }));
  if (daysBetween === null) return null;
  for (let days = Math.max(1, daysBetween); ; days += 1) {
    const time = sentAt.plus({ days });
    const ms = millisOf(time);
    if (ms === null) return null;
    if (ms > after && !(rules.noticeInWorkday && isWeekend(time))) return ms;
  }
}

/**
 * The notice after one sent at `sent`, for an occurrence still not complete; none without
 * overdue notices. Slots before `now` are skipped: a server that was down sends one notice
 * when it starts, not every slot it missed.
 */
export function repeatNotice(sent: number, now: number, rules: NoticeRules): number | null {
  if (!rules.overdueNotice) return null;
  const after = Math.max(sent, now);
  if (rules.noticeHours.length === 0) return sameTimeOnLaterDay(sent, after, rules);
  const start = DateTime.fromMillis(after, { zone: rules.zone }).startOf('day');
  if (!start.isValid) return null;
  for (let day = 0; day <= MAX_DAYS_AHEAD; day += 1) {
    const date = start.plus({ days: day });
    if (!date.isValid) return null;
    if (rules.noticeInWorkday && isWeekend(date)) continue;
    for (const hour of rules.noticeHours) {
      // An hour that a spring-forward skips becomes the hour after, as clocks do.
      const slot = millisOf(DateTime.fromObject({ year: date.year, month: date.month, day: date.day, hour }, { zone: rules.zone }));
      if (slot !== null && slot > after) return slot;
    }
  }
  return null;
}
