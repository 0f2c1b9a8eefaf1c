import { DateTime } from 'luxon';

/** What decides when a task's notices go (DESIGN §5 Notices). */
export type NoticeRules = {
  zone: string;
  overdueNotice: boolean;
  /** Local hours, sorted. */
  noticeHours: readonly number[];
  noticeInWorkday: boolean;
};

const SATURDAY = 6;
// Sorted hours recur daily, so a match lies within a week even with weekends skipped.
const MAX_DAYS_AHEAD = 8;

const isWeekend = (time: DateTime) => time.weekday >= SATURDAY;

/** The first notice of an occurrence: at its due time, moved past a weekend for workday tasks. */
export function firstNotice(scheduleTime: number, rules: NoticeRules): number {
  let time = DateTime.fromMillis(scheduleTime, { zone: rules.zone });
  if (rules.noticeInWorkday) {
    while (isWeekend(time)) time = time.plus({ days: 1 });
  }
  return time.toMillis();
}

/**
 * The notice after one sent at `sent`, for an occurrence still not complete; none without
 * overdue notices. Slots before `now` are skipped: a server that was down sends one notice
 * when it starts, not every slot it missed.
 */
export function repeatNotice(sent: number, now: number, rules: NoticeRules): number | null {
  if (!rules.overdueNotice) return null;
  const after = Math.max(sent, now);
  if (rules.noticeHours.length === 0) {
    let time = DateTime.fromMillis(sent, { zone: rules.zone });
    do time = time.plus({ days: 1 });
    while (time.toMillis() <= after || (rules.noticeInWorkday && isWeekend(time)));
    return time.toMillis();
  }
  const start = DateTime.fromMillis(after, { zone: rules.zone }).startOf('day');
  for (let day = 0; day <= MAX_DAYS_AHEAD; day += 1) {
    const date = start.plus({ days: day });
    if (rules.noticeInWorkday && isWeekend(date)) continue;
    for (const hour of rules.noticeHours) {
      // An hour that a spring-forward skips becomes the hour after, as clocks do.
      const slot = DateTime.fromObject({ year: date.year, month: date.month, day: date.day, hour }, { zone: rules.zone });
      if (slot.toMillis() > after) return slot.toMillis();
    }
  }
  return null;
}
