import { ICalAlarm, ICalAlarmType, ICalCalendar, type ICalEvent } from 'ical-generator';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';
import { calendarEvents, type CalendarEvent } from './calendar-events.ts';
import type { CompletionRow, TaskRow } from './tasks.store.ts';

/** A due time, not a span: long enough for a calendar to draw it as a block. */
const EVENT_MINUTES = 30;
/** How often a client should poll; clients that honour it (Apple, Thunderbird) read `REFRESH-INTERVAL`. */
const REFRESH_SECONDS = 3600;
/** Marks a completed occurrence where every calendar shows it: in its title. */
export const COMPLETED_PREFIX = '✓ ';
export const COMPLETED_PROPERTY = 'X-ORGANISER-COMPLETED';

export type TaskCalendarInput = {
  tasks: TaskRow[];
  completions: CompletionRow[];
  /** The owner's IANA zone. */
  zone: string;
  now: number;
  /** The address of a task's page. */
  taskUrl(id: string): string;
};

const utcStamp = (ms: number) => DateTime.fromMillis(ms, { zone: 'utc' }).toFormat("yyyyLLdd'T'HHmmss'Z'");

/** Stable across edits of the task: a task and the due time of one of its occurrences. */
export const eventUid = (taskId: string, start: number) => `${taskId}-${utcStamp(start)}@organiser`;

/**
 * The zone's VTIMEZONE and the TZID it names (the library's canonical name: Asia/Calcutta is
 * written Asia/Kolkata). Null for a zone the library does not have — none of the runtime's own
 * today — whose events are then written in UTC.
 */
function vtimezoneOf(zone: string): { tzid: string; block: string } | null {
  if (!(tzlib_get_timezones() as string[]).includes(zone)) return null;
  const found = tzlib_get_ical_block(zone);
  if (!Array.isArray(found) || !found[0] || !found[1]) return null;
  return { block: found[0], tzid: found[1].replace(/^TZID=/, '') };
}

function description(event: CalendarEvent, url: string): string {
  const completed = event.completedAt === null ? [] : [`Completed ${new Date(event.completedAt).toISOString()}`];
  return [event.task.comment, ...completed, url].filter((part) => part.length > 0).join('\n\n');
}

/**
 * A notice as an alarm. At the due time it is the usual relative `PT0S`. Any other notice is an
 * absolute UTC time: a duration would read differently across a DST change (RFC 5545 counts its
 * days in local time and its hours exactly; libical and ical.js count both on the wall clock).
 * ical-generator writes an absolute trigger in its event's zone and without the `Z` that RFC 5545
 * §3.8.6.3 requires (Google then drops the event), so such an alarm is made on a zone-less twin of
 * the event, where the library writes UTC, and then given to the event.
 */
function addNotice(target: ICalEvent, twin: ICalEvent, start: number, notice: number, name: string): void {
  const alarm = { type: ICalAlarmType.display, description: name };
  if (notice === start) target.createAlarm({ ...alarm, trigger: 0 });
  else target.createAlarm(new ICalAlarm({ ...alarm, trigger: new Date(notice) }, twin));
}

/**
 * The owner's tasks as an iCalendar feed (RFC 5545): one VEVENT per occurrence within the window
 * (calendar-events.ts), in the owner's zone with its VTIMEZONE. Pure: the same input gives the
 * same text, so its hash is the feed's ETag.
 */
export function taskCalendar({ tasks, completions, zone, now, taskUrl }: TaskCalendarInput): string {
  const timezone = vtimezoneOf(zone);
  const calendar = new ICalCalendar({
    prodId: { company: 'Organiser', product: 'Tasks', language: 'EN' },
    name: 'Organiser tasks',
    ttl: REFRESH_SECONDS,
    ...(timezone ? { timezone: { name: null, generator: () => timezone.block } } : {}),
  });
  const twins = new ICalCalendar();
  for (const event of calendarEvents(tasks, completions, zone, now)) {
    const start = DateTime.fromMillis(event.start, { zone });
    const summary = event.completedAt === null ? event.task.name : `${COMPLETED_PREFIX}${event.task.name}`;
    const url = taskUrl(event.task.id);
    const written = calendar.createEvent({
      id: eventUid(event.task.id, event.start),
      start,
      end: start.plus({ minutes: EVENT_MINUTES }),
      timezone: timezone?.tzid ?? null,
      stamp: new Date(event.stamp),
      lastModified: new Date(event.stamp),
      summary,
      description: description(event, url),
      url,
      ...(event.completedAt === null
        ? {}
        : { categories: [{ name: 'Completed' }], x: [{ key: COMPLETED_PROPERTY, value: utcStamp(event.completedAt) }] }),
    });
    const twin = twins.createEvent({ start: new Date(event.start), summary });
    for (const notice of event.notices) addNotice(written, twin, event.start, notice, event.task.name);
  }
  // ical-generator ends the last line without the CRLF that ends every content line (RFC 5545 §3.1).
  return `${calendar.toString()}\r\n`;
}
