import ICAL from 'ical.js';

/** One VEVENT as a calendar app reads it, its times in UTC after applying the feed's VTIMEZONE. */
export type ParsedEvent = {
  uid: string;
  summary: string;
  description: string;
  url: string | null;
  /** DTSTART's TZID; null for a UTC time. */
  tzid: string | null;
  /** DTSTART as written: the local wall time, `2026-03-08T09:00:00`. */
  localStart: string;
  start: string;
  end: string;
  categories: string[];
  completed: string | null;
  /** Each VALARM's time, in UTC. */
  alarms: string[];
};

export type ParsedCalendar = { timezones: string[]; events: ParsedEvent[] };

const utc = (time: ICAL.Time) => new Date(time.toUnixTime() * 1000).toISOString().replace('.000Z', 'Z');
const text = (value: unknown) => (typeof value === 'string' ? value : null);

function alarmTime(alarm: ICAL.Component, start: ICAL.Time): string {
  const trigger = alarm.getFirstPropertyValue('trigger');
  if (trigger instanceof ICAL.Time) return utc(trigger);
  if (trigger instanceof ICAL.Duration) return new Date((start.toUnixTime() + trigger.toSeconds()) * 1000).toISOString().replace('.000Z', 'Z');
  throw new Error('VALARM without a TRIGGER');
}

/**
 * Parses a feed with ical.js, Mozilla's parser (Thunderbird's): the zones are only those the feed
 * defines, so a missing or wrong VTIMEZONE shows as wrong UTC times.
 */
export function parseCalendar(body: string): ParsedCalendar {
  const calendar = new ICAL.Component(ICAL.parse(body));
  const timezones = calendar.getAllSubcomponents('vtimezone').map((vtimezone) => {
    const zone = new ICAL.Timezone(vtimezone);
    ICAL.TimezoneService.register(zone, zone.tzid);
    return zone.tzid;
  });
  const events = calendar.getAllSubcomponents('vevent').map((vevent): ParsedEvent => {
    const event = new ICAL.Event(vevent);
    const dtstart = vevent.getFirstProperty('dtstart');
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description ?? '',
      url: text(vevent.getFirstPropertyValue('url')),
      tzid: text(dtstart?.getParameter('tzid')),
      localStart: event.startDate.toString(),
      start: utc(event.startDate),
      end: utc(event.endDate),
      categories: vevent.getAllProperties('categories').flatMap((property) => property.getValues().map(String)),
      completed: text(vevent.getFirstPropertyValue('x-organiser-completed')),
      alarms: vevent.getAllSubcomponents('valarm').map((alarm) => alarmTime(alarm, event.startDate)),
    };
  });
  return { timezones, events };
}
