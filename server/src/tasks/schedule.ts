import { DateTime, type DurationLikeObject } from 'luxon';
import type { RepeatingType, ScheduleType } from '../../../contract/tasks.ts';
import { calendarMonthsBetween, calendarDaysBetween, localInstant, millisOf } from './local-calendar.ts';

/** One step of each schedule type, in local calendar terms (docs/behaviour/tasks-and-notices.md). */
const STEP: Record<RepeatingType, { months: number } | { days: number }> = {
  y: { months: 12 },
  q: { months: 3 },
  m: { months: 1 },
  b: { days: 14 },
  w: { days: 7 },
  d: { days: 1 },
};

/** The six codes' series; a custom rule's is recurrence.ts's. */
export type Series = { anchor: number; type: Exclude<ScheduleType, 'c'>; zone: string };

function times(step: DurationLikeObject, n: number): DurationLikeObject {
  return Object.fromEntries(Object.entries(step).map(([unit, amount]) => [unit, amount * n]));
}

/**
 * Occurrence n: the anchor plus n steps, counted from the anchor every time, so that month
 * ends clamp without drifting (Jan 31, Feb 28/29, Mar 31) and local clock times hold across DST.
 * Null when there is none: past the first of a one-off task, or where the calendar cannot hold it
 * (within a day of the ends of JavaScript's dates).
 */
export function occurrence({ anchor, type, zone }: Series, n: number): number | null {
  if (type === 'o') return n === 0 ? millisOf(DateTime.fromMillis(anchor, { zone })) : null;
  return localInstant(DateTime.fromMillis(anchor, { zone }).plus(times(STEP[type], n)));
}

/** How many whole steps lie between the anchor's local date and that of `time`. */
function stepsUntil({ anchor, type, zone }: Series & { type: RepeatingType }, time: number): number | null {
  const from = DateTime.fromMillis(anchor, { zone });
  const to = DateTime.fromMillis(time, { zone });
  const step = STEP[type];
  const count = 'months' in step ? calendarMonthsBetween(from, to) : calendarDaysBetween(from, to);
  return count === null ? null : Math.floor(count / ('months' in step ? step.months : step.days));
}

/**
 * The first occurrence after `index` that is later than `after`: its index and time; null for a
 * one-off task, which has no other, and when that lies beyond what the calendar can hold. Computed, not stepped to, so that a series
 * anchored any number of years back costs the same: occurrence `stepsUntil(after)` falls on the
 * local date of `after` or before it, and the one after it on a later date, so the loops below
 * take a step or two at most. The step back is for a local time moved forward by a gap in the
 * zone's clock — by a day where a day was skipped (Samoa, 30 December 2011).
 */
export function nextOccurrence(series: Series, index: number, after: number): { index: number; time: number } | null {
  const { type } = series;
  if (type === 'o') return null;
  const estimate = stepsUntil({ ...series, type }, after);
  if (estimate === null) return null;
  let n = Math.max(index + 1, estimate);
  while (n > index + 1 && (occurrence(series, n - 1) ?? -Infinity) > after) n -= 1;
  let time = occurrence(series, n);
  while (time !== null && time <= after) {
    n += 1;
    time = occurrence(series, n);
  }
  return time === null ? null : { index: n, time };
}
