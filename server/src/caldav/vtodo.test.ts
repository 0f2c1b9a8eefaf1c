import { describe, expect, it } from 'vitest';
import type { SyncedTask } from '../tasks/task-sync.ts';
import { DavError } from './dav-errors.ts';
import { parseClientTodo, ruleWithoutEnd, vtodoCalendar, vtodoItemCalendar } from './vtodo.ts';

const calendar = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const todo = (...lines: string[]) => calendar('BEGIN:VTODO', 'UID:a@b', 'DTSTAMP:20261201T080000Z', 'SUMMARY:Chore', ...lines, 'END:VTODO');

const task = (fields: Partial<SyncedTask> = {}): SyncedTask => ({
  id: 'id-1',
  uid: 'id-1',
  resourceName: 'id-1.ics',
  change: 1,
  name: 'Water the plants',
  comment: 'The ferns, too',
  active: true,
  due: Date.UTC(2026, 2, 28, 8),
  rrule: 'FREQ=WEEKLY',
  end: Date.UTC(2026, 5, 1),
  created: Date.UTC(2026, 0, 1),
  lastModified: Date.UTC(2026, 1, 1),
  notice: Date.UTC(2026, 2, 28, 8),
  checklist: [],
  ...fields,
});

describe('a client\'s RRULE', () => {
  it('is kept without its end and week start', () => {
    expect(ruleWithoutEnd('FREQ=WEEKLY;INTERVAL=2;UNTIL=20270101T000000Z;WKST=MO')).toBe('FREQ=WEEKLY;INTERVAL=2');
    expect(ruleWithoutEnd('freq=DAILY;COUNT=5')).toBe('FREQ=DAILY;COUNT=5');
  });

  it('is read from a VTODO as it is, any rule the client made', () => {
    expect(parseClientTodo(todo('DUE:20261202T170000Z', 'RRULE:FREQ=MONTHLY;BYDAY=2TU;UNTIL=20271231T000000Z'), 'UTC')).toMatchObject({
      rrule: 'FREQ=MONTHLY;BYDAY=2TU',
      end: Date.UTC(2027, 11, 31),
    });
  });
});

describe('a task as a VTODO', () => {
  it('reads back as the task it was written from, in the owner\'s zone across a DST change', () => {
    const written = vtodoCalendar(task(), 'Europe/Berlin');
    expect(written).toContain('DUE;TZID=Europe/Berlin:20260328T090000');
    expect(written).toContain('BEGIN:VTIMEZONE');
    expect(parseClientTodo(written, 'UTC')).toEqual({
      uid: 'id-1',
      name: 'Water the plants',
      comment: 'The ferns, too',
      due: Date.UTC(2026, 2, 28, 8),
      rrule: 'FREQ=WEEKLY',
      end: Date.UTC(2026, 5, 1),
      completed: false,
      parent: null,
    });
    expect(parseClientTodo(vtodoCalendar(task({ active: false, rrule: null, end: null }), 'UTC'), 'UTC')).toMatchObject({ completed: true, rrule: null });
  });

  it('reads a client\'s times: UTC, a TZID, floating in the owner\'s zone, a date at its midnight', () => {
    expect(parseClientTodo(todo('DUE:20261202T170000Z'), 'UTC').due).toBe(Date.UTC(2026, 11, 2, 17));
    expect(parseClientTodo(todo('DUE;TZID=America/New_York:20261202T120000'), 'UTC').due).toBe(Date.UTC(2026, 11, 2, 17));
    expect(parseClientTodo(todo('DUE:20261202T180000'), 'Europe/Berlin').due).toBe(Date.UTC(2026, 11, 2, 17));
    expect(parseClientTodo(todo('DUE;VALUE=DATE:20261202'), 'Europe/Berlin').due).toBe(Date.UTC(2026, 11, 1, 23));
    expect(parseClientTodo(todo(), 'UTC').due).toBeNull();
    expect(parseClientTodo(todo('COMPLETED:20261202T170000Z'), 'UTC').completed).toBe(true);
    expect(parseClientTodo(todo('PRIORITY:1', 'X-UNKNOWN;FOO=bar:baz', 'CATEGORIES:home'), 'UTC').name).toBe('Chore');
  });

  it('refuses what is not a task in iCalendar: 400, or 403 for another kind of object', () => {
    const status = (body: string) => {
      try {
        parseClientTodo(body, 'UTC');
        return 200;
      } catch (error) {
        return error instanceof DavError ? error.statusCode : 500;
      }
    };
    expect(status('not iCalendar')).toBe(400);
    expect(status(calendar('BEGIN:VTODO', 'SUMMARY:No UID', 'END:VTODO'))).toBe(400);
    expect(status(calendar())).toBe(400);
    expect(status(calendar('BEGIN:VEVENT', 'UID:e', 'DTSTART:20261201T080000Z', 'END:VEVENT'))).toBe(403);
  });

  it('writes a checklist item as a VTODO related to its task, and reads the parent a client names', () => {
    const item = vtodoItemCalendar(task({ uid: 'id-1-item-x', name: 'Passport', active: false, rrule: null, end: null }), 'id-1');
    expect(parseClientTodo(item, 'UTC')).toMatchObject({ uid: 'id-1-item-x', name: 'Passport', completed: true, parent: 'id-1', rrule: null });
    expect(parseClientTodo(todo('RELATED-TO;RELTYPE=SIBLING:other'), 'UTC').parent).toBeNull();
    expect(parseClientTodo(todo('RELATED-TO:id-1'), 'UTC').parent).toBe('id-1');
  });
});
