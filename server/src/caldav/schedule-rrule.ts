import type { ScheduleType } from '../../../contract/tasks.ts';

/** The RRULE of each repeating schedule type (docs/behaviour/tasks-and-notices.md); a one-off task has none. */
const RULES: Record<Exclude<ScheduleType, 'o'>, string> = {
  y: 'FREQ=YEARLY',
  q: 'FREQ=MONTHLY;INTERVAL=3',
  m: 'FREQ=MONTHLY',
  b: 'FREQ=WEEKLY;INTERVAL=2',
  w: 'FREQ=WEEKLY',
  d: 'FREQ=DAILY',
};

/** The parts of an RRULE that say how often, without the end (UNTIL, COUNT) or the week's start. */
const STEP_PARTS = new Set(['FREQ', 'INTERVAL']);
const IGNORED_PARTS = new Set(['UNTIL', 'COUNT', 'WKST']);

/**
 * The schedule type as an RRULE (null for a one-off task), and an RRULE as a schedule type: null
 * when there is none, undefined when no type steps that way (every 3 days; on Mondays and
 * Thursdays), which the caller leaves as it was.
 */
export const scheduleRrule = {
  of: (type: ScheduleType): string | null => (type === 'o' ? null : RULES[type]),
  typeOf(rrule: string | null): ScheduleType | null | undefined {
    if (rrule === null) return null;
    const parts = rrule
      .toUpperCase()
      .split(';')
      .map((part) => part.split('='))
      .filter(([key]) => key !== undefined && !IGNORED_PARTS.has(key));
    if (parts.some(([key]) => !STEP_PARTS.has(key!))) return undefined;
    const interval = parts.find(([key]) => key === 'INTERVAL')?.[1] ?? '1';
    const step = `FREQ=${parts.find(([key]) => key === 'FREQ')?.[1] ?? ''}${interval === '1' ? '' : `;INTERVAL=${interval}`}`;
    return (Object.entries(RULES) as [ScheduleType, string][]).find(([, rule]) => rule === step)?.[0];
  },
};
