import { DateTime } from 'luxon';
import rrule, { type Options } from 'rrule';
import type { RepeatFrom, ScheduleType } from '../../../contract/tasks.ts';
import { AppError } from '../errors.ts';
import { calendarDaysBetween, calendarMonthsBetween, localInstant } from './local-calendar.ts';
import * as fixedSteps from './schedule.ts';

const { RRule } = rrule;

// Recurrence of a task (docs/behaviour/tasks-and-notices.md, docs/decisions/0045): the
// specification's six codes step from the anchor as schedule.ts has always done, and are shown as
// the RRULE that says the same; any other rule (`c`) is an RFC 5545 RRULE expanded by the `rrule`
// library. The library runs on "floating" times — local wall-clock fields carried in a UTC Date —
// and Luxon turns each into an instant in the owner's zone, so a local time holds across DST
// without the library's own zone handling.

/** A task's occurrences: the first at `anchor` (or the rule's first after it), each later one by the rule. */
export type Series = { anchor: number; type: ScheduleType; rrule: string | null; zone: string };

/** Bounds that keep every expansion short: COUNT is counted from the anchor. */
export const MAX_RULE_COUNT = 1000;
export const MAX_RULE_INTERVAL = 1000;
/** The Gregorian calendar repeats every 400 years: a rule with no occurrence in them has none ever. */
const CYCLE_YEARS = 400;
/** The library stops at year 9999; the check for a rule that never occurs runs in the last cycle before it. */
const LIBRARY_LAST_YEAR = 9999;
const LAST_CYCLE_YEAR = LIBRARY_LAST_YEAR - CYCLE_YEARS;

const ALLOWED_PARTS = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'BYSETPOS', 'BYYEARDAY', 'BYWEEKNO', 'WKST']);
/** Parts that pick days of a month or year, which a daily or weekly rule would only use to filter days one by one. */
const MONTH_OR_YEAR_PARTS = ['BYMONTHDAY', 'BYYEARDAY', 'BYWEEKNO', 'BYSETPOS'];
const FREQUENCIES = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] as const;
type Frequency = (typeof FREQUENCIES)[number];

/** Each item of a list part: `test` says whether it is one. */
const numberFrom = (min: number, max: number) => (item: string) => /^[+-]?\d{1,3}$/.test(item) && Math.abs(Number(item)) >= min && Math.abs(Number(item)) <= max;
const LIST_PARTS: Record<string, { test: (item: string) => boolean; says: string }> = {
  BYDAY: { test: (item) => /^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$/.test(item), says: 'weekdays such as MO,TH or 2TU or -1FR' },
  BYMONTHDAY: { test: numberFrom(1, 31), says: 'days from 1 to 31, or -1 to -31 counted from the month\'s end' },
  BYMONTH: { test: (item) => /^\d{1,2}$/.test(item) && Number(item) >= 1 && Number(item) <= 12, says: 'months from 1 to 12' },
  BYSETPOS: { test: numberFrom(1, 366), says: 'positions from 1 to 366 or -1 to -366' },
  BYYEARDAY: { test: numberFrom(1, 366), says: 'days from 1 to 366 or -1 to -366' },
  BYWEEKNO: { test: numberFrom(1, 53), says: 'weeks from 1 to 53 or -1 to -53' },
  WKST: { test: (item) => /^(MO|TU|WE|TH|FR|SA|SU)$/.test(item), says: 'a weekday such as MO' },
};

const badRule = (reason: string) => new AppError(400, `Repeat rule ${reason}`);

/** The rule's parts by name, upper-cased, without an `RRULE:` prefix. */
function partsOf(text: string): Map<string, string> {
  const body = text.trim().toUpperCase().replace(/^RRULE:/, '');
  const parts = new Map<string, string>();
  for (const part of body.split(';')) {
    const [name, value, ...rest] = part.split('=');
    if (!name || value === undefined || value === '' || rest.length > 0) throw badRule(`must be parts like FREQ=WEEKLY;BYDAY=MO separated by ";"`);
    if (parts.has(name)) throw badRule(`names ${name} twice`);
    parts.set(name, value);
  }
  return parts;
}

/** Checks what the library would accept silently or expand without bound; the normalised rule text. */
function checkedRule(text: string, repeatFrom: RepeatFrom): string {
  if (text.length > 500) throw badRule('must be at most 500 characters');
  const parts = partsOf(text);
  const freq = parts.get('FREQ');
  if (!freq) throw badRule('needs FREQ');
  if (!FREQUENCIES.includes(freq as Frequency)) throw badRule('FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY');
  for (const name of parts.keys()) {
    if (!ALLOWED_PARTS.has(name)) throw badRule(`part ${name} is not supported`);
  }
  if ((freq === 'DAILY' || freq === 'WEEKLY') && MONTH_OR_YEAR_PARTS.some((name) => parts.has(name))) {
    throw badRule(`with FREQ=${freq} may not use ${MONTH_OR_YEAR_PARTS.join(', ')}; use FREQ=MONTHLY or YEARLY`);
  }
  const whole = (name: string, max: number) => {
    const value = parts.get(name);
    if (value !== undefined && !(/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= max)) throw badRule(`${name} must be a whole number from 1 to ${max}`);
  };
  whole('INTERVAL', MAX_RULE_INTERVAL);
  whole('COUNT', MAX_RULE_COUNT);
  if (parts.has('COUNT') && parts.has('UNTIL')) throw badRule('may have COUNT or UNTIL, not both');
  if (parts.has('COUNT') && repeatFrom === 'done') throw badRule('counted (COUNT) cannot repeat from when it is done; use UNTIL');
  for (const [name, check] of Object.entries(LIST_PARTS)) {
    const value = parts.get(name);
    if (value !== undefined && !value.split(',').every(check.test)) throw badRule(`${name} must be ${check.says}`);
  }
  if ((freq === 'DAILY' || freq === 'WEEKLY') && /\d/.test(parts.get('BYDAY') ?? '')) throw badRule(`with FREQ=${freq} takes BYDAY without a number (MO, not 2MO)`);
  const until = parts.get('UNTIL');
  if (until !== undefined && !/^\d{8}(T\d{6}Z?)?$/.test(until)) throw badRule('UNTIL must be a date such as 20271231 or 20271231T235959Z');
  const normalised = [...parts].map(([name, value]) => `${name}=${value}`).join(';');
  try {
    new RRule(RRule.parseString(normalised));
  } catch (error) {
    throw badRule(`cannot be read: ${(error as Error).message}`);
  }
  return normalised;
}

/** The years the library computes: it reads 0–99 as 1900–1999, and stops at 9999. */
const inLibraryRange = (date: Date) => !Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 100 && date.getUTCFullYear() <= LIBRARY_LAST_YEAR;

/** Local wall-clock fields of `ms` in `zone`, carried in a UTC Date as the library expects. */
function floating(ms: number, zone: string): Date {
  const local = DateTime.fromMillis(ms, { zone });
  // Not Date.UTC, which reads the years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(local.year, local.month - 1, local.day);
  date.setUTCHours(local.hour, local.minute, local.second, local.millisecond);
  return date;
}

/** The instant of a floating time in `zone` (localInstant: a skipped time moves forward, a repeated one is the first). */
function instant(date: Date, zone: string): number | null {
  const local = DateTime.fromObject(
    {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
      millisecond: date.getUTCMilliseconds(),
    },
    { zone },
  );
  return localInstant(local);
}

/**
 * The library's options for a custom rule starting at `anchor`, with the days the rule takes from
 * its start written out (the anchor's weekday, day of month, month), so that the same rule started
 * at a later period (`startAt`) still gives the same days.
 */
function optionsOf(rule: string, anchor: Date, zone: string): Partial<Options> {
  const parts = partsOf(rule);
  const options: Partial<Options> = { ...RRule.parseString(rule), dtstart: anchor, tzid: null };
  const until = parts.get('UNTIL');
  if (until !== undefined && options.until) {
    if (until.endsWith('Z')) options.until = floating(options.until.getTime(), zone);
    // A date alone includes the whole of that local day.
    else if (until.length === 8) options.until = new Date(options.until.getTime() + 86_400_000 - 1);
  }
  const picksDays = ['BYDAY', 'BYMONTHDAY', 'BYYEARDAY', 'BYWEEKNO'].some((name) => parts.has(name));
  const freq = parts.get('FREQ');
  if (freq === 'WEEKLY' && !picksDays) options.byweekday = [(anchor.getUTCDay() + 6) % 7];
  if ((freq === 'MONTHLY' || freq === 'YEARLY') && !picksDays) options.bymonthday = [anchor.getUTCDate()];
  if (freq === 'YEARLY' && !picksDays && !parts.has('BYMONTH')) options.bymonth = [anchor.getUTCMonth() + 1];
  return options;
}

/**
 * The rule started again `periods` whole periods (INTERVAL × FREQ) after the anchor's: at the same
 * time, on the first day of that month or year, or the same weekday. Its occurrences from there on
 * are the rule's own, so a series anchored years back costs what a new one does.
 */
function startAt(options: Partial<Options>, anchor: Date, periods: number): Date {
  const interval = options.interval ?? 1;
  const step = periods * interval;
  const [y, m, time] = [anchor.getUTCFullYear(), anchor.getUTCMonth(), ((anchor.getTime() % 86_400_000) + 86_400_000) % 86_400_000];
  switch (options.freq) {
    case RRule.DAILY:
      return new Date(anchor.getTime() + step * 86_400_000);
    case RRule.WEEKLY:
      return new Date(anchor.getTime() + step * 7 * 86_400_000);
    case RRule.MONTHLY:
      return new Date(Date.UTC(y, m + step, 1) + time);
    default:
      return new Date(Date.UTC(y + step, 0, 1) + time);
  }
}

/** Whole periods of the rule between the anchor and `time`, both floating. */
function periodsBetween(options: Partial<Options>, anchor: Date, time: Date): number {
  const from = DateTime.fromJSDate(anchor, { zone: 'utc' });
  const to = DateTime.fromJSDate(time, { zone: 'utc' });
  const interval = options.interval ?? 1;
  switch (options.freq) {
    case RRule.DAILY:
      return Math.floor((calendarDaysBetween(from, to) ?? 0) / interval);
    case RRule.WEEKLY:
      return Math.floor((calendarDaysBetween(from, to) ?? 0) / (7 * interval));
    case RRule.MONTHLY:
      return Math.floor((calendarMonthsBetween(from, to) ?? 0) / interval);
    default:
      return Math.floor((to.year - from.year) / interval);
  }
}

/** The first occurrence of a custom rule later than `after`: counted ones from the anchor, others from a period or two before. */
function nextOfRule(series: Series & { rrule: string }, after: number): number | null {
  const anchor = floating(series.anchor, series.zone);
  const target = floating(after, series.zone);
  // Outside its years the library loops on rather than ending (an invalid date) or is wrong.
  if (!inLibraryRange(anchor) || !inLibraryRange(target)) return null;
  const options = optionsOf(series.rrule, anchor, series.zone);
  const periods = options.count ? 0 : periodsBetween(options, anchor, target) - 1;
  const start = periods > 0 ? startAt(options, anchor, periods) : anchor;
  const rule = new RRule({ ...options, dtstart: start });
  // Past the local time of `after`, the occurrence may still be earlier in the hour the clocks pass
  // twice (after 01:30 the second time, 01:45 is the first one's): then the one after it.
  for (let next = rule.after(target, false); next !== null; next = rule.after(next, false)) {
    const time = instant(next, series.zone);
    if (time === null || time > after) return time;
  }
  return null;
}

/**
 * The first occurrence after `index` that is later than `after`, with its number; null when there
 * is none (a one-off task, a rule ended by COUNT or UNTIL, or past what the calendar holds). A
 * custom rule's numbers count the occurrences the task moved through.
 */
export function nextOccurrence(series: Series, index: number, after: number): { index: number; time: number } | null {
  if (series.type !== 'c') return fixedSteps.nextOccurrence({ ...series, type: series.type }, index, after);
  if (series.rrule === null) return null;
  const time = nextOfRule({ ...series, rrule: series.rrule }, after);
  return time === null ? null : { index: index + 1, time };
}

/** The first occurrence of a new series: its anchor for the six codes, the rule's first at or after it for a custom rule. */
export function firstOccurrence(series: Series): number | null {
  if (series.type !== 'c') return series.anchor;
  if (series.rrule === null) return null;
  return nextOfRule({ ...series, rrule: series.rrule }, series.anchor - 1);
}

/**
 * Where a series repeating from when it was done starts again: on the local day it was done, at
 * the clock time of its anchor. Its next occurrence is the first after that.
 */
export function anchorOnDoneDay(series: Series, doneAt: number): number {
  const anchor = DateTime.fromMillis(series.anchor, { zone: series.zone });
  const done = DateTime.fromMillis(doneAt, { zone: series.zone });
  const moved = done.set({ hour: anchor.hour, minute: anchor.minute, second: anchor.second, millisecond: anchor.millisecond });
  return moved.isValid ? moved.toMillis() : doneAt;
}

/** The RRULE a six-code type stands for, from the anchor's local day (month ends clamp: the rule's last day of 28–31). */
function rruleOfCode(type: Exclude<ScheduleType, 'o' | 'c'>, anchor: number, zone: string): string {
  const local = DateTime.fromMillis(anchor, { zone });
  const clampedDay = (first: number) => (local.day > first ? `BYMONTHDAY=${[...Array(local.day - first + 1).keys()].map((k) => first + k).join(',')};BYSETPOS=-1` : `BYMONTHDAY=${local.day}`);
  switch (type) {
    case 'd':
      return 'FREQ=DAILY';
    case 'w':
      return 'FREQ=WEEKLY';
    case 'b':
      return 'FREQ=WEEKLY;INTERVAL=2';
    case 'm':
      return `FREQ=MONTHLY;${clampedDay(28)}`;
    case 'q':
      return `FREQ=MONTHLY;INTERVAL=3;${clampedDay(28)}`;
    case 'y':
      return local.month === 2 && local.day === 29 ? 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1' : 'FREQ=YEARLY';
  }
}

/** The RRULE value (without `RRULE:`) of any task row, as the API and CalDAV give it; null for a one-off task. */
export function rruleOf(row: { schedule_type: string; rrule: string | null; anchor_time: number }, zone: string): string | null {
  const type = row.schedule_type as ScheduleType;
  if (type === 'o') return null;
  if (type === 'c') return row.rrule;
  return rruleOfCode(type, row.anchor_time, zone);
}

/**
 * A client's RRULE as (schedule_type, rrule): one of the six codes where the rule says exactly what
 * that code does from `anchor`, else `c` with the rule checked and normalised. Throws a 400 for a
 * rule the server does not take: unreadable, sub-daily, unbounded, or with no occurrence at all.
 */
export function parseRecurrence(text: string, repeatFrom: RepeatFrom, anchor: number, zone: string): { schedule_type: ScheduleType; rrule: string | null } {
  const rule = checkedRule(text, repeatFrom);
  for (const code of ['d', 'w', 'b', 'm', 'q', 'y'] as const) {
    if (rruleOfCode(code, anchor, zone) === rule) return { schedule_type: code, rrule: null };
  }
  // The rule without its end, started in the last 400 years the library reaches: none there, none ever.
  const open = [...partsOf(rule)].filter(([name]) => name !== 'COUNT' && name !== 'UNTIL').map(([n, v]) => `${n}=${v}`).join(';');
  const start = floating(anchor, zone);
  const options = optionsOf(open, start, zone);
  const lastCycle = new Date(Date.UTC(LAST_CYCLE_YEAR, 0, 1));
  const late = new RRule({ ...options, dtstart: startAt(options, start, periodsBetween(options, start, lastCycle)) });
  if (late.after(lastCycle, true) === null) throw badRule('never occurs');
  if (firstOccurrence({ anchor, type: 'c', rrule: rule, zone }) === null) throw badRule('has no occurrence after the first due time');
  return { schedule_type: 'c', rrule: rule };
}
