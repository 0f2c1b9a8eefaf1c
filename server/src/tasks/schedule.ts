import { DateTime, type DurationLikeObject } from 'luxon';
import type { ScheduleType } from '../../../contract/tasks.ts';

/** One step of each schedule type, in local calendar terms (DESIGN §5). */
const STEP: Record<ScheduleType, DurationLikeObject> = {
  y: { years: 1 },
  q: { months: 3 },
  m: { months: 1 },
  b: { weeks: 2 },
  w: { weeks: 1 },
  d: { days: 1 },
};

// The longest a step can last (a leap year, a 31-day month, a DST hour): dividing by it never overshoots.
const LONGEST_STEP_MS: Record<ScheduleType, number> = {
  y: 367 * 86_400_000,
  q: 93 * 86_400_000,
  m: 32 * 86_400_000,
  b: 15 * 86_400_000,
  w: 8 * 86_400_000,
  d: 25 * 3_600_000,
};

export type Series = { anchor: number; type: ScheduleType; zone: string };

function times(step: DurationLikeObject, n: number): DurationLikeObject {
  return Object.fromEntries(Object.entries(step).map(([unit, amount]) => [unit, amount * n]));
}

/**
 * Occurrence n: the anchor plus n steps, counted from the anchor every time, so that month
 * ends clamp without drifting (Jan 31, Feb 28/29, Mar 31) and local clock times hold across DST.
 */
export function occurrence({ anchor, type, zone }: Series, n: number): number {
  return DateTime.fromMillis(anchor, { zone }).plus(times(STEP[type], n)).toMillis();
}

/** The first occurrence after `index` that is later than `after`: its index and time. */
export function nextOccurrence(series: Series, index: number, after: number): { index: number; time: number } {
  const current = occurrence(series, index);
  let n = index + 1 + Math.max(0, Math.floor((after - current) / LONGEST_STEP_MS[series.type]) - 1);
  let time = occurrence(series, n);
  while (time <= after) {
    n += 1;
    time = occurrence(series, n);
  }
  return { index: n, time };
}
