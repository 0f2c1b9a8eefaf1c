import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';
import type { SyncedTask } from '../tasks/task-sync.ts';
import { DavError } from './dav-errors.ts';

/** What a client's VTODO says, in the task's terms; a field the VTODO leaves out is null. */
export type ClientTodo = {
  uid: string;
  name: string;
  comment: string;
  /** DUE, or DTSTART without one. */
  due: number | null;
  /** The RRULE without its end (`end`): `ruleWithoutEnd`; null: none. */
  rrule: string | null;
  /** The RRULE's UNTIL. */
  end: number | null;
  completed: boolean;
  /** The UID of the VTODO this one is part of (RELATED-TO, RELTYPE PARENT or none): a checklist item's task. */
  parent: string | null;
};

/** An RRULE value without UNTIL (kept as the task's end) and WKST (Monday, as the rule library counts). */
export function ruleWithoutEnd(rule: string): string {
  return rule
    .toUpperCase()
    .split(';')
    .filter((part) => part !== '' && !/^(UNTIL|WKST)=/.test(part))
    .join(';');
}

/** Each zone's VTIMEZONE as parsed once: the library's lookup costs milliseconds, a sync renders every task. */
const vtimezones = new Map<string, unknown[] | null>();

/** The zone's VTIMEZONE, or null for one the library does not have (its times are then written in UTC). */
function vtimezoneOf(zone: string): ICAL.Component | null {
  if (!vtimezones.has(zone)) {
    const found = (tzlib_get_timezones() as string[]).includes(zone) ? tzlib_get_ical_block(zone) : null;
    vtimezones.set(zone, Array.isArray(found) && found[0] ? (ICAL.parse(found[0]) as unknown[]) : null);
  }
  const parsed = vtimezones.get(zone);
  // A component of its own each time, over the same parsed data, which rendering only reads.
  return parsed ? new ICAL.Component(parsed) : null;
}

const utc = (ms: number) => ICAL.Time.fromJSDate(new Date(ms), true);

/** A local time with its TZID, or UTC when the zone has no VTIMEZONE here. */
function addTime(todo: ICAL.Component, name: string, ms: number, timezone: ICAL.Component | null): void {
  if (timezone === null) {
    todo.addPropertyWithValue(name, utc(ms));
    return;
  }
  const tzid = String(timezone.getFirstPropertyValue('tzid'));
  const local = DateTime.fromMillis(ms, { zone: tzid });
  const property = new ICAL.Property(name);
  property.setParameter('tzid', tzid);
  property.setValue(ICAL.Time.fromData({ year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute, second: local.second }));
  todo.addProperty(property);
}

/**
 * A task as a calendar object (RFC 5545 VTODO): its current occurrence's due time, its schedule
 * as an RRULE, its first notice as an alarm. Pure: the same task gives the same text, whose hash
 * is the ETag.
 */
export function vtodoCalendar(task: SyncedTask, zone: string): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', '-//Organiser//Tasks//EN');
  const timezone = vtimezoneOf(zone);
  const todo = new ICAL.Component('vtodo');
  todo.addPropertyWithValue('uid', task.uid);
  todo.addPropertyWithValue('dtstamp', utc(task.lastModified));
  todo.addPropertyWithValue('created', utc(task.created));
  todo.addPropertyWithValue('last-modified', utc(task.lastModified));
  todo.addPropertyWithValue('summary', task.name);
  if (task.comment !== '') todo.addPropertyWithValue('description', task.comment);
  const rrule = task.rrule;
  // An RRULE counts from DTSTART (RFC 5545 §3.3.10): the current occurrence, as the series goes on from it.
  if (rrule !== null) addTime(todo, 'dtstart', task.due, timezone);
  addTime(todo, 'due', task.due, timezone);
  if (rrule !== null) {
    const recur = ICAL.Recur.fromString(rrule);
    if (task.end !== null) recur.until = utc(task.end);
    todo.addPropertyWithValue('rrule', recur);
  }
  todo.addPropertyWithValue('status', task.active ? 'NEEDS-ACTION' : 'COMPLETED');
  if (!task.active) {
    todo.addPropertyWithValue('completed', utc(task.lastModified));
    todo.addPropertyWithValue('percent-complete', 100);
  }
  if (task.notice !== null) {
    const alarm = new ICAL.Component('valarm');
    alarm.addPropertyWithValue('action', 'DISPLAY');
    alarm.addPropertyWithValue('description', task.name);
    const trigger = new ICAL.Property('trigger');
    trigger.setParameter('value', 'DATE-TIME');
    trigger.setValue(utc(task.notice));
    alarm.addProperty(trigger);
    todo.addSubcomponent(alarm);
  }
  if (timezone !== null) calendar.addSubcomponent(timezone);
  calendar.addSubcomponent(todo);
  return `${calendar.toString()}\r\n`;
}

/**
 * A checklist item as a calendar object: a VTODO of its own whose RELATED-TO names its task's UID
 * (RFC 5545 §3.8.4.5, RELTYPE PARENT), ticked as COMPLETED. `item` is the item in a task's terms
 * (calendars.ts).
 */
export function vtodoItemCalendar(item: SyncedTask, parentUid: string): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.addPropertyWithValue('version', '2.0');
  calendar.addPropertyWithValue('prodid', '-//Organiser//Tasks//EN');
  const todo = new ICAL.Component('vtodo');
  todo.addPropertyWithValue('uid', item.uid);
  todo.addPropertyWithValue('dtstamp', utc(item.lastModified));
  todo.addPropertyWithValue('created', utc(item.created));
  todo.addPropertyWithValue('last-modified', utc(item.lastModified));
  todo.addPropertyWithValue('summary', item.name);
  const related = new ICAL.Property('related-to');
  related.setParameter('reltype', 'PARENT');
  related.setValue(parentUid);
  todo.addProperty(related);
  todo.addPropertyWithValue('status', item.active ? 'NEEDS-ACTION' : 'COMPLETED');
  if (!item.active) todo.addPropertyWithValue('completed', utc(item.lastModified));
  calendar.addSubcomponent(todo);
  return `${calendar.toString()}\r\n`;
}

const badCalendar = (why: string) => new DavError(400, `The body is not a task in iCalendar: ${why}`);

/**
 * Epoch ms of a client's time: UTC, or local to its TZID (an IANA name, as clients send, or the
 * VTIMEZONE the client sent with it), or floating and then the owner's; a date alone is its
 * midnight in the owner's zone.
 */
function millisOf(property: ICAL.Property, calendar: ICAL.Component, zone: string): number {
  const time = property.getFirstValue();
  if (!(time instanceof ICAL.Time)) throw badCalendar(`${property.name.toUpperCase()} is not a date or time`);
  const tzid = property.getParameter('tzid');
  return timeMillis(time, typeof tzid === 'string' ? tzid : null, calendar, zone);
}

function timeMillis(time: ICAL.Time, tzid: string | null, calendar: ICAL.Component, zone: string): number {
  const fields = { year: time.year, month: time.month, day: time.day, hour: time.isDate ? 0 : time.hour, minute: time.minute, second: time.second };
  if (time.zone === ICAL.Timezone.utcTimezone) return Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
  const named = tzid !== null ? DateTime.fromObject(fields, { zone: tzid }) : null;
  if (named?.isValid) return named.toMillis();
  const sent = calendar.getAllSubcomponents('vtimezone').find((vtimezone) => vtimezone.getFirstPropertyValue('tzid') === tzid);
  if (sent) {
    const floating = DateTime.fromObject(fields, { zone: 'utc' }).toMillis();
    return floating - new ICAL.Timezone(sent).utcOffset(time) * 1000;
  }
  const local = DateTime.fromObject(fields, { zone });
  if (!local.isValid) throw badCalendar(`${time.toString()} is not a time the calendar holds`);
  return local.toMillis();
}

const text = (todo: ICAL.Component, name: string): string => {
  const value = todo.getFirstPropertyValue(name);
  return typeof value === 'string' ? value : '';
};

function parentOf(todo: ICAL.Component): string | null {
  const parent = todo.getAllProperties('related-to').find((related) => {
    const type = related.getParameter('reltype');
    return type === undefined || (typeof type === 'string' && type.toUpperCase() === 'PARENT');
  });
  const uid = parent?.getFirstValue();
  return typeof uid === 'string' && uid !== '' ? uid : null;
}

/** A client's calendar object as a task's fields; 400 when it is not iCalendar or holds no VTODO. */
export function parseClientTodo(body: string, zone: string): ClientTodo {
  let calendar: ICAL.Component;
  try {
    calendar = new ICAL.Component(ICAL.parse(body));
  } catch (error) {
    throw badCalendar(error instanceof Error ? error.message : 'it does not parse');
  }
  if (calendar.name !== 'vcalendar') throw badCalendar('it is not a VCALENDAR');
  // The series itself; instances a client moved (RECURRENCE-ID) are not kept.
  const todo = calendar.getAllSubcomponents('vtodo').find((component) => !component.hasProperty('recurrence-id'));
  if (!todo) {
    const other = calendar.getAllSubcomponents().some((component) => component.name !== 'vtimezone');
    if (other) throw new DavError(403, 'This calendar holds tasks (VTODO) only', { namespace: 'urn:ietf:params:xml:ns:caldav', name: 'supported-calendar-component' });
    throw badCalendar('it holds no VTODO');
  }
  const uid = text(todo, 'uid');
  if (uid === '') throw badCalendar('the VTODO has no UID');
  const due = todo.getFirstProperty('due') ?? todo.getFirstProperty('dtstart');
  const recur = todo.getFirstPropertyValue('rrule');
  const rrule = recur instanceof ICAL.Recur ? recur : null;
  const status = text(todo, 'status').toUpperCase();
  return {
    uid,
    name: text(todo, 'summary'),
    comment: text(todo, 'description'),
    due: due ? millisOf(due, calendar, zone) : null,
    rrule: rrule ? ruleWithoutEnd(rrule.toString()) : null,
    end: rrule?.until ? timeMillis(rrule.until, null, calendar, zone) : null,
    completed: status === 'COMPLETED' || (status === '' && todo.hasProperty('completed')),
    parent: parentOf(todo),
  };
}
