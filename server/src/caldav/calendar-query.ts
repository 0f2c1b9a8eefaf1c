import { DateTime } from 'luxon';
import type { SyncedTask } from '../tasks/task-sync.ts';
import { CALDAV, childNamed, childrenNamed, type XmlElement } from './dav-xml.ts';

/** A time-range bound (`20260101T000000Z`, RFC 4791 §9.9); an absent or unreadable one leaves that side open. */
function boundOf(value: string | undefined, open: number): number {
  if (value === undefined) return open;
  const time = DateTime.fromFormat(value, "yyyyLLdd'T'HHmmss'Z'", { zone: 'utc' });
  return time.isValid ? time.toMillis() : open;
}

/** Whether any occurrence may fall in the range: the current one, or for a series any later one up to its end. */
function inTimeRange(task: SyncedTask, range: XmlElement): boolean {
  const start = boundOf(range.attributes.start, -Infinity);
  const end = boundOf(range.attributes.end, Infinity);
  const last = task.rrule === null ? task.due : (task.end ?? Infinity);
  return task.due < end && last >= start;
}

const negated = (match: XmlElement) => match.attributes['negate-condition'] === 'yes';

/** The property filters clients send for tasks: COMPLETED (not) defined, and STATUS matched as text. */
function matchesPropFilter(task: SyncedTask, filter: XmlElement): boolean {
  const name = filter.attributes.name?.toUpperCase();
  const undefinedOnly = childNamed(filter, CALDAV, 'is-not-defined') !== undefined;
  if (name === 'COMPLETED') return undefinedOnly ? task.active : true;
  if (name === 'STATUS') {
    const status = task.active ? 'NEEDS-ACTION' : 'COMPLETED';
    if (undefinedOnly) return false;
    const match = childNamed(filter, CALDAV, 'text-match');
    if (!match) return true;
    const contains = status.includes(match.text.trim().toUpperCase());
    return negated(match) ? !contains : contains;
  }
  // Another property's filter is not applied: the client filters what it gets again.
  return true;
}

function matchesTodoFilter(task: SyncedTask, filter: XmlElement): boolean {
  if (childNamed(filter, CALDAV, 'is-not-defined')) return false;
  const range = childNamed(filter, CALDAV, 'time-range');
  if (range && !inTimeRange(task, range)) return false;
  return childrenNamed(filter, CALDAV, 'prop-filter').every((propFilter) => matchesPropFilter(task, propFilter));
}

/** Whether a task passes a calendar-query's filter (RFC 4791 §9.7), as far as tasks can be told apart by it. */
export function matchesCalendarQuery(task: SyncedTask, filter: XmlElement | undefined): boolean {
  const calendar = childNamed(filter, CALDAV, 'comp-filter');
  if (!calendar) return true;
  if (calendar.attributes.name?.toUpperCase() !== 'VCALENDAR') return false;
  return childrenNamed(calendar, CALDAV, 'comp-filter').every((component) => {
    const isTodo = component.attributes.name?.toUpperCase() === 'VTODO';
    if (!isTodo) return childNamed(component, CALDAV, 'is-not-defined') !== undefined;
    return matchesTodoFilter(task, component);
  });
}
