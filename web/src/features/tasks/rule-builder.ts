import { DateTime } from 'luxon';
import type { RepeatFrom } from '../../../../contract/tasks.ts';
import { WEEKDAYS } from './rule-words.ts';

// The common rules as a few choices (every N days, weeks on chosen days, months on a day or an nth
// weekday or the last day, years; until a date or N times) and the RRULE they make.

export type RuleUnit = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
export type MonthlyBy = 'day' | 'weekday' | 'last';
export type RuleEnd = 'never' | 'until' | 'count';

export interface RuleChoices {
  unit: RuleUnit;
  interval: number;
  /** Weekly: the days, as MO, TU… */
  weekdays: string[];
  monthlyBy: MonthlyBy;
  /** The first due day, which a monthly rule's day or nth weekday come from. */
  day: number;
  weekdayOfMonth: { n: number; code: string };
  end: RuleEnd;
  /** yyyy-MM-dd, the last local day an occurrence may fall on. */
  until: string;
  count: number;
}

/** A rule and what it counts from: what the create and detail screens send. */
export interface RuleDraft {
  rule: string;
  repeatFrom: RepeatFrom;
}

/** Choices that start from the first due time (an ISO time; now when none is typed yet). */
export function choicesFor(firstDue: string | null, zone: string): RuleChoices {
  const parsed = firstDue === null ? DateTime.now().setZone(zone) : DateTime.fromISO(firstDue, { zone });
  const start = parsed.isValid ? parsed : DateTime.now().setZone(zone);
  const code = WEEKDAYS[start.weekday - 1]!.code;
  return {
    unit: 'WEEKLY',
    interval: 1,
    weekdays: [code],
    monthlyBy: 'day',
    day: start.day,
    weekdayOfMonth: { n: Math.min(Math.ceil(start.day / 7), 4), code },
    end: 'never',
    until: start.plus({ years: 1 }).toISODate() ?? '',
    count: 10,
  };
}

/** The RRULE value the choices make; UNTIL is the end of the `until` day in `zone`, in UTC as RFC 5545 asks. */
export function ruleOf(choices: RuleChoices, zone: string): string {
  const parts = [`FREQ=${choices.unit}`];
  if (choices.interval > 1) parts.push(`INTERVAL=${choices.interval}`);
  if (choices.unit === 'WEEKLY' && choices.weekdays.length > 0) {
    parts.push(`BYDAY=${WEEKDAYS.map((day) => day.code).filter((code) => choices.weekdays.includes(code)).join(',')}`);
  }
  if (choices.unit === 'MONTHLY') {
    if (choices.monthlyBy === 'day') parts.push(`BYMONTHDAY=${choices.day}`);
    if (choices.monthlyBy === 'weekday') parts.push(`BYDAY=${choices.weekdayOfMonth.n}${choices.weekdayOfMonth.code}`);
    if (choices.monthlyBy === 'last') parts.push('BYMONTHDAY=-1');
  }
  if (choices.end === 'count') parts.push(`COUNT=${choices.count}`);
  if (choices.end === 'until') {
    const until = DateTime.fromISO(choices.until, { zone }).endOf('day').toUTC();
    if (until.isValid) parts.push(`UNTIL=${until.toFormat("yyyyMMdd'T'HHmmss'Z'")}`);
  }
  return parts.join(';');
}
