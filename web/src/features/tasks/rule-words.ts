import { DateTime } from 'luxon';
import type { RepeatFrom } from '../../../../contract/tasks.ts';

// A repeat rule (an RRULE value) in the words the task screens show: the common rules read as a
// sentence ("Every 2 weeks on Monday and Thursday"), anything else as the rule itself. The server
// reads and checks rules with its library; this only says them.

export const WEEKDAYS = [
  { code: 'MO', name: 'Monday' },
  { code: 'TU', name: 'Tuesday' },
  { code: 'WE', name: 'Wednesday' },
  { code: 'TH', name: 'Thursday' },
  { code: 'FR', name: 'Friday' },
  { code: 'SA', name: 'Saturday' },
  { code: 'SU', name: 'Sunday' },
] as const;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const UNITS: Record<string, [string, string]> = { DAILY: ['day', 'days'], WEEKLY: ['week', 'weeks'], MONTHLY: ['month', 'months'], YEARLY: ['year', 'years'] };

/** The rule's parts by name, upper-cased, without an `RRULE:` prefix. */
export function ruleParts(rule: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const part of rule.trim().toUpperCase().replace(/^RRULE:/, '').split(';')) {
    const [name, value] = part.split('=');
    if (name && value) parts.set(name, value);
  }
  return parts;
}

/** 1st, 2nd, 3rd, 4th, 11th, 22nd… */
export function ordinal(n: number): string {
  const tens = n % 100;
  return `${n}${tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
}

/** "Monday, Tuesday and Friday" */
function listed(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

const dayName = (code: string) => WEEKDAYS.find((day) => day.code === code)?.name;

/** "the 2nd Tuesday", "the last Friday", "Monday"; undefined for what is not a weekday. */
function weekdayWords(item: string): string | undefined {
  const match = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(item);
  const name = match && match[2] ? dayName(match[2]) : undefined;
  if (!match || !name) return undefined;
  if (match[1] === undefined) return name;
  const n = Number(match[1]);
  return n === -1 ? `the last ${name}` : n < 0 ? `the ${ordinal(-n)} last ${name}` : `the ${ordinal(n)} ${name}`;
}

/** "the 15th", "the last day", "the 2nd last day" */
function monthDayWords(item: string): string | undefined {
  const n = Number(item);
  if (!Number.isInteger(n) || n === 0) return undefined;
  return n === -1 ? 'the last day' : n < 0 ? `the ${ordinal(-n)} last day` : `the ${ordinal(n)}`;
}

/**
 * The monthly codes from a day past the 28th, as the server writes them: the last of the days
 * 28 to D that the month has ("BYMONTHDAY=28,29,30;BYSETPOS=-1" is the 30th, or the month's end).
 */
function clampedDay(parts: Map<string, string>): string[] | undefined {
  const days = parts.get('BYMONTHDAY')?.split(',').map(Number);
  const others = [...parts.keys()].filter((name) => !['FREQ', 'INTERVAL', 'BYMONTHDAY', 'BYSETPOS', 'BYMONTH', 'COUNT', 'UNTIL'].includes(name));
  if (parts.get('BYSETPOS') !== '-1' || !days || others.length > 0 || days[0] !== 28 || days.some((day, k) => day !== 28 + k)) return undefined;
  const last = days.at(-1)!;
  return [last === 31 ? 'the last day' : `the ${ordinal(last)} (or the last day of a shorter month)`];
}

/** The end of a rule: ", until 31 December 2027" or ", 10 times"; the time of UNTIL is left out. */
function endWords(parts: Map<string, string>, zone: string): string {
  const count = parts.get('COUNT');
  if (count !== undefined) return count === '1' ? ', once' : `, ${count} times`;
  const until = parts.get('UNTIL');
  if (until === undefined) return '';
  // A UTC time is said as the owner's local day; a date or a local time as it is.
  const date = until.endsWith('Z')
    ? DateTime.fromFormat(until, "yyyyMMdd'T'HHmmss'Z'", { zone: 'utc' }).setZone(zone)
    : DateTime.fromFormat(until.slice(0, 8), 'yyyyMMdd', { zone: 'utc' });
  return date.isValid ? `, until ${date.toFormat('d MMMM yyyy', { locale: 'en-GB' })}` : '';
}

/** The rule's sentence without its end, or null when it says more than the words below cover. */
function mainWords(parts: Map<string, string>): string | null {
  const freq = parts.get('FREQ') ?? '';
  const unit = UNITS[freq];
  if (!unit) return null;
  const known = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'WKST']);
  if ([...parts.keys()].some((name) => !known.has(name)) && clampedDay(parts) === undefined) return null;
  const interval = Number(parts.get('INTERVAL') ?? '1');
  const every = interval === 1 ? `every ${unit[0]}` : `every ${interval} ${unit[1]}`;
  const days = parts.get('BYDAY')?.split(',').map(weekdayWords);
  const monthDays = clampedDay(parts) ?? parts.get('BYMONTHDAY')?.split(',').map(monthDayWords);
  const months = parts.get('BYMONTH')?.split(',').map((month) => MONTHS[Number(month) - 1]);
  if (days?.some((day) => day === undefined) || monthDays?.some((day) => day === undefined) || months?.some((month) => month === undefined)) return null;
  const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

  if (freq === 'MONTHLY' && (days || monthDays) && !months) {
    // "On the 2nd Tuesday of every month", "On the last day of every 3 months"
    return capital(`on ${listed([...(monthDays ?? []), ...(days ?? [])] as string[])} of ${every}`);
  }
  if (freq === 'YEARLY' && months && (days || monthDays)) {
    return capital(`${every} on ${listed([...(monthDays ?? []), ...(days ?? [])] as string[])} of ${listed(months as string[])}`);
  }
  if (months) return null;
  if (days) return capital(`${every} on ${listed(days as string[])}`);
  if (monthDays) return null;
  return capital(every);
}

/** The rule in words: "Every 2 weeks on Monday and Thursday", "Every 3 days after it is done, 5 times". */
export function ruleWords(rule: string | null, repeatFrom: RepeatFrom = 'due', zone = 'utc'): string {
  if (rule === null) return 'Does not repeat';
  const parts = ruleParts(rule);
  const main = mainWords(parts);
  if (main === null) return `By the rule ${rule}`;
  return `${main}${repeatFrom === 'done' ? ' after it is done' : ''}${endWords(parts, zone)}`;
}
