import { DateTime } from 'luxon';

// Calendar arithmetic in a zone, in a constant number of operations whatever the dates, so that
// no stored time, however far off, makes the server step through the years between (docs/behaviour/bad-input-and-limits.md).

const DAY_MS = 86_400_000;

/**
 * Epoch ms of a local time, or null when the calendar cannot hold it. Luxon marks a time
 * invalid beyond JavaScript's ±8.64e15 ms, and also a time within a day of those ends when its
 * zone's offset carries the local date past them.
 */
export function millisOf(time: DateTime): number | null {
  return time.isValid ? time.toMillis() : null;
}

/** True when the calendar can hold `ms` as a local time in `zone`. */
export const isInCalendar = (ms: number, zone: string): boolean => DateTime.fromMillis(ms, { zone }).isValid;

/** The local date as a day count, from the wall-clock time; `Date.UTC` would fail at the range's ends. */
const localDayNumber = (time: DateTime) => Math.floor((time.toMillis() + time.offset * 60_000) / DAY_MS);

/** Days from the local date of `from` to that of `to`; null if either cannot be held. */
export function calendarDaysBetween(from: DateTime, to: DateTime): number | null {
  if (!from.isValid || !to.isValid) return null;
  return localDayNumber(to) - localDayNumber(from);
}

/** Months from the local month of `from` to that of `to`; null if either cannot be held. */
export function calendarMonthsBetween(from: DateTime, to: DateTime): number | null {
  if (!from.isValid || !to.isValid) return null;
  return (to.year - from.year) * 12 + (to.month - from.month);
}

/**
 * The instant of a local time in `zone`, null if the calendar cannot hold it. A time the clocks
 * pass twice (the night they go back) is the first of the two, as RFC 5545 reads it; a time they
 * skip moves forward by the gap (02:30 becomes 03:30).
 */
export function localInstant(time: DateTime): number | null {
  if (!time.isValid) return null;
  const wall = time.toMillis() + time.offset * 60_000;
  const zone = time.zone;
  const earliest = [zone.offset(time.toMillis() - DAY_MS), zone.offset(time.toMillis() + DAY_MS)]
    .map((offset) => wall - offset * 60_000)
    .filter((ms) => zone.offset(ms) * 60_000 === wall - ms)
    .sort((a, b) => a - b)[0];
  return earliest ?? time.toMillis();
}
