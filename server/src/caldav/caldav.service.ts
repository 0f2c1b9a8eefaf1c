import { type SyncedTask, type TaskSync, taskNamesOfItem } from '../tasks/task-sync.ts';
import {
  type Calendar,
  type CalendarObject,
  calendarObjectsOf,
  calendarPath,
  calendarsOf,
  changeOfSyncToken,
  type DavTarget,
  homePath,
  objectPath,
  principalPath,
  parseDavPath,
  resolveDavPath,
  syncTokenOf,
} from './calendars.ts';
import { DavError } from './dav-errors.ts';
import { davMissing, davResponse, type Property, type PropertyRequest, propertyRequestOf } from './dav-properties.ts';
import { CALDAV, CALENDARSERVER, childNamed, childrenNamed, DAV, davDocument, type XmlElement, type XmlValue } from './dav-xml.ts';
import { matchesCalendarQuery } from './calendar-query.ts';

const notFound = () => new DavError(404, 'Not found');

/** The object's content type; `component` tells clients it holds a VTODO. */
export const CALENDAR_OBJECT_TYPE = 'text/calendar; charset=utf-8; component=VTODO';

const property = (namespace: string, name: string, value: Property['value'], notInAllprop = false): Property => ({ namespace, name, value, notInAllprop });

const REPORTS: XmlValue[] = [
  { 'd:report': { 'c:calendar-query': '' } },
  { 'd:report': { 'c:calendar-multiget': '' } },
  { 'd:report': { 'd:sync-collection': '' } },
];

/** The properties of the resources above the calendar objects. */
function collectionProperties(userId: string, target: Exclude<DavTarget, { kind: 'object' }>, lastChange: (calendar: Calendar) => Promise<number>) {
  const principal = property(DAV, 'current-user-principal', { 'd:href': principalPath(userId) });
  switch (target.kind) {
    case 'root':
      return Promise.resolve([property(DAV, 'resourcetype', { 'd:collection': '' }), principal]);
    case 'principal':
      return Promise.resolve([
        property(DAV, 'resourcetype', { 'd:principal': '' }),
        principal,
        property(DAV, 'principal-URL', { 'd:href': principalPath(userId) }),
        property(CALDAV, 'calendar-home-set', { 'd:href': homePath(userId) }),
        property(DAV, 'displayname', 'Organiser'),
      ]);
    case 'home':
      return Promise.resolve([property(DAV, 'resourcetype', { 'd:collection': '' }), principal]);
    case 'calendar':
      return lastChange(target.calendar).then((change) => calendarProperties(target.calendar, principal, syncTokenOf(change)));
  }
}

function calendarProperties(calendar: Calendar, principal: Property, token: string): Property[] {
  return [
    property(DAV, 'resourcetype', { 'd:collection': '', 'c:calendar': '' }),
    principal,
    property(DAV, 'displayname', calendar.displayName),
    property(CALDAV, 'supported-calendar-component-set', { 'c:comp': { '@_name': 'VTODO' } }),
    property(CALENDARSERVER, 'getctag', token),
    property(DAV, 'sync-token', token),
    property(DAV, 'supported-report-set', { 'd:supported-report': REPORTS }),
    property(DAV, 'current-user-privilege-set', { 'd:privilege': [{ 'd:read': '' }, { 'd:write': '' }, { 'd:write-content': '' }, { 'd:unbind': '' }, { 'd:bind': '' }] }),
  ];
}

function objectProperties(object: CalendarObject): Property[] {
  return [
    property(DAV, 'resourcetype', ''),
    property(DAV, 'getetag', object.etag),
    property(DAV, 'getcontenttype', CALENDAR_OBJECT_TYPE),
    property(DAV, 'getlastmodified', new Date(object.task.lastModified).toUTCString()),
    property(CALDAV, 'calendar-data', () => object.text, true),
  ];
}

/** The calendar object a report's href names in `calendar`; null for anything else. */
function resourceNameOf(href: string, userId: string, calendar: Calendar): string | null {
  // URL.canParse first: a client's href is text, and a relative one resolves against any base.
  if (!URL.canParse(href, 'http://localhost')) return null;
  const target = parseDavPath(new URL(href, 'http://localhost').pathname, userId);
  return target?.kind === 'object' && target.calendarId === calendar.id ? target.resourceName : null;
}

/** WebDAV and CalDAV reads over the user's calendars of tasks (task-sync.ts): PROPFIND, REPORT, GET. */
export function createCalDavReads(sync: TaskSync) {
  const objectsOf = async (userId: string, tasks: SyncedTask[]) => {
    const zone = await sync.zoneOf(userId);
    return tasks.flatMap((task) => calendarObjectsOf(task, zone));
  };

  /** The calendar objects of these resource names, tasks' and checklist items', by name. */
  async function objectsNamed(userId: string, calendar: Calendar, names: readonly string[]): Promise<Map<string, CalendarObject>> {
    const taskNames = names.flatMap((name) => taskNamesOfItem(name)?.taskNames ?? [name]);
    const objects = await objectsOf(userId, await sync.named(userId, calendar.tasks, taskNames));
    const wanted = new Set(names);
    return new Map(objects.filter((object) => wanted.has(object.task.resourceName)).map((object) => [object.task.resourceName, object]));
  }

  async function objectNamed(userId: string, calendar: Calendar, resourceName: string): Promise<CalendarObject | null> {
    return (await objectsNamed(userId, calendar, [resourceName])).get(resourceName) ?? null;
  }

  const objectResponse = (userId: string, calendar: Calendar, object: CalendarObject, request: PropertyRequest) =>
    davResponse(objectPath(userId, calendar, object.task.resourceName), objectProperties(object), request);

  async function multiget(userId: string, calendar: Calendar, body: XmlElement, request: PropertyRequest): Promise<XmlValue[]> {
    const hrefs = childrenNamed(body, DAV, 'href').map((href) => href.text);
    const names = hrefs.map((href) => resourceNameOf(href, userId, calendar));
    const byName = await objectsNamed(userId, calendar, names.flatMap((name) => name ?? []));
    return hrefs.map((href, index) => {
      const object = byName.get(names[index] ?? '');
      return object ? objectResponse(userId, calendar, object, request) : davMissing(href);
    });
  }

  async function syncCollection(userId: string, calendar: Calendar, body: XmlElement, request: PropertyRequest): Promise<Record<string, XmlValue | XmlValue[]>> {
    const given = childNamed(body, DAV, 'sync-token')?.text.trim() ?? '';
    const after = given === '' ? 0 : changeOfSyncToken(given);
    const invalid = () => new DavError(403, 'The sync token is not valid here; sync again from the start', { namespace: DAV, name: 'valid-sync-token' });
    if (after === null) throw invalid();
    const { lastChange, changed, deleted } = await sync.since(userId, calendar.tasks, after);
    if (after > lastChange) throw invalid();
    const objects = await objectsOf(userId, changed);
    return {
      'd:response': [
        ...objects.map((object) => objectResponse(userId, calendar, object, request)),
        ...deleted.map((name) => davMissing(objectPath(userId, calendar, name))),
      ],
      'd:sync-token': syncTokenOf(Math.max(lastChange, ...changed.map((task) => task.change))),
    };
  }

  const lastChange = (calendar: Calendar) => sync.lastChange(calendar.tasks);

  return {
    objectNamed,

    /** The target a path names for the user; null: a 404. */
    resolve: (path: string, userId: string) => resolveDavPath(sync, path, userId),

    /** PROPFIND: the target's properties and, at depth 1, its members'. */
    async propfind(userId: string, target: DavTarget, depth: 0 | 1, body: XmlElement | null): Promise<string> {
      const request = propertyRequestOf(body);
      if (target.kind === 'object') {
        const object = await objectNamed(userId, target.calendar, target.resourceName);
        if (!object) throw notFound();
        return davDocument('d:multistatus', { 'd:response': [objectResponse(userId, target.calendar, object, request)] });
      }
      const href = target.kind === 'root' ? '/dav/' : target.kind === 'principal' ? principalPath(userId) : target.kind === 'home' ? homePath(userId) : calendarPath(userId, target.calendar);
      const responses = [davResponse(href, await collectionProperties(userId, target, lastChange), request)];
      if (depth === 1 && target.kind === 'home') {
        for (const calendar of await calendarsOf(sync, userId)) {
          const properties = await collectionProperties(userId, { kind: 'calendar', calendar }, lastChange);
          responses.push(davResponse(calendarPath(userId, calendar), properties, request));
        }
      }
      if (depth === 1 && target.kind === 'calendar') {
        const { changed } = await sync.since(userId, target.calendar.tasks, 0);
        for (const object of await objectsOf(userId, changed)) responses.push(objectResponse(userId, target.calendar, object, request));
      }
      return davDocument('d:multistatus', { 'd:response': responses });
    },

    /** REPORT on a calendar: calendar-multiget, calendar-query or sync-collection. */
    async report(userId: string, target: DavTarget, body: XmlElement | null): Promise<string> {
      if (target.kind !== 'calendar' || body === null) {
        throw new DavError(403, 'Reports are made on a calendar', { namespace: DAV, name: 'supported-report' });
      }
      const request = propertyRequestOf(body);
      if (body.namespace === CALDAV && body.name === 'calendar-multiget') {
        return davDocument('d:multistatus', { 'd:response': await multiget(userId, target.calendar, body, request) });
      }
      if (body.namespace === CALDAV && body.name === 'calendar-query') {
        const { changed } = await sync.since(userId, target.calendar.tasks, 0);
        const objects = (await objectsOf(userId, changed)).filter((object) => matchesCalendarQuery(object.task, childNamed(body, CALDAV, 'filter')));
        return davDocument('d:multistatus', { 'd:response': objects.map((object) => objectResponse(userId, target.calendar, object, request)) });
      }
      if (body.namespace === DAV && body.name === 'sync-collection') {
        return davDocument('d:multistatus', await syncCollection(userId, target.calendar, body, request));
      }
      throw new DavError(403, `The ${body.name} report is not supported`, { namespace: DAV, name: 'supported-report' });
    },
  };
}
export type CalDavReads = ReturnType<typeof createCalDavReads>;
