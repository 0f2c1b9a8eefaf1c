import { createHash } from 'node:crypto';
import { itemResourceName, itemUid, type SyncedTask, type TaskCalendar, type TaskSync } from '../tasks/task-sync.ts';
import { vtodoCalendar, vtodoItemCalendar } from './vtodo.ts';

/**
 * A calendar of tasks: `tasks`, the user's own unlisted tasks, or `list-<id>`, a household list
 * they own or are a member of; each task is in exactly one.
 */
export type Calendar = { id: string; displayName: string; tasks: TaskCalendar };

/** The calendars of a user, in the order clients list them, from lists and memberships as they are now. */
export async function calendarsOf(sync: Pick<TaskSync, 'calendarsOf'>, userId: string): Promise<Calendar[]> {
  return (await sync.calendarsOf(userId)).map((tasks) => ({
    id: tasks.listId === null ? 'tasks' : `list-${tasks.listId}`,
    displayName: tasks.name,
    tasks,
  }));
}

export const DAV_PREFIX = '/dav';
export const principalPath = (userId: string) => `${DAV_PREFIX}/principals/${userId}/`;
export const homePath = (userId: string) => `${DAV_PREFIX}/calendars/${userId}/`;
export const calendarPath = (userId: string, calendar: Calendar) => `${homePath(userId)}${calendar.id}/`;
export const objectPath = (userId: string, calendar: Calendar, resourceName: string) =>
  `${calendarPath(userId, calendar)}${encodeURIComponent(resourceName)}`;

/** What a path names, its calendar named by its id alone; null when it is not the user's. */
type DavPath =
  | { kind: 'root' }
  | { kind: 'principal' }
  | { kind: 'home' }
  | { kind: 'calendar'; calendarId: string }
  | { kind: 'object'; calendarId: string; resourceName: string };

/** What a path names: one of the user's, or null (another user's, or nothing: a 404 either way). */
export type DavTarget =
  | { kind: 'root' }
  | { kind: 'principal' }
  | { kind: 'home' }
  | { kind: 'calendar'; calendar: Calendar }
  | { kind: 'object'; calendar: Calendar; resourceName: string };

export function parseDavPath(path: string, userId: string): DavPath | null {
  let segments: string[];
  try {
    segments = path.split('?')[0]!.split('/').filter((segment) => segment !== '').map(decodeURIComponent);
  } catch {
    return null;
  }
  if (segments[0] !== DAV_PREFIX.slice(1)) return null;
  const [, area, owner, calendarId, resourceName, ...rest] = segments;
  if (area === undefined) return { kind: 'root' };
  if (owner !== userId || rest.length > 0) return null;
  if (area === 'principals') return calendarId === undefined ? { kind: 'principal' } : null;
  if (area !== 'calendars') return null;
  if (calendarId === undefined) return { kind: 'home' };
  return resourceName === undefined ? { kind: 'calendar', calendarId } : { kind: 'object', calendarId, resourceName };
}

/** The path's target, its calendar one the user has now (a list they have left is a 404 at once). */
export async function resolveDavPath(sync: Pick<TaskSync, 'calendarsOf'>, path: string, userId: string): Promise<DavTarget | null> {
  const parsed = parseDavPath(path, userId);
  if (parsed === null || (parsed.kind !== 'calendar' && parsed.kind !== 'object')) return parsed;
  const calendar = (await calendarsOf(sync, userId)).find((candidate) => candidate.id === parsed.calendarId);
  if (!calendar) return null;
  return parsed.kind === 'calendar' ? { kind: 'calendar', calendar } : { kind: 'object', calendar, resourceName: parsed.resourceName };
}

/**
 * A calendar object: a task, or an item of its checklist (`parent` its task), its strong ETag and
 * its text, rendered when first read. An item's `task` is the item in a task's terms (its id,
 * UID, name and status), so that what reads a task's properties reads an item's.
 */
export type CalendarObject = { task: SyncedTask; parent: SyncedTask | null; etag: string; readonly text: string };

/** Changed with any change to how a VTODO is written, so that the ETags of a new version differ. */
const VTODO_FORMAT = 1;

/**
 * The text is a pure function of the task at its change number and the owner's zone (task-sync.ts
 * holds nothing else a change leaves unnumbered; a checklist change is a change of its task), so
 * these name it exactly, as a strong ETag must, without rendering it: a sync lists a thousand
 * ETags and reads the text of few.
 */
function etagOf(task: SyncedTask, zone: string): string {
  const zoneHash = createHash('sha256').update(`${VTODO_FORMAT}\0${zone}`).digest('base64url').slice(0, 8);
  return `"${task.change}-${zoneHash}"`;
}

function objectOf(task: SyncedTask, parent: SyncedTask | null, zone: string): CalendarObject {
  let text: string | null = null;
  return {
    task,
    parent,
    etag: etagOf(task, zone),
    get text() {
      text ??= parent === null ? vtodoCalendar(task, zone) : vtodoItemCalendar(task, parent.uid);
      return text;
    },
  };
}

/** The task's calendar object, then one per item of its checklist. */
export function calendarObjectsOf(task: SyncedTask, zone: string): CalendarObject[] {
  const items = task.checklist.map((item) =>
    objectOf(
      {
        ...task,
        id: item.id,
        uid: itemUid(task.uid, item.id),
        resourceName: itemResourceName(task.resourceName, item.id),
        name: item.text,
        comment: '',
        active: !item.done,
        rrule: null,
        end: null,
        notice: null,
        checklist: [],
      },
      task,
      zone,
    ),
  );
  return [objectOf(task, null, zone), ...items];
}

const SYNC_TOKEN_PREFIX = 'urn:organiser:tasks-sync:';

/** RFC 6578's token (a URI) for a change number; the calendar's CTag is the same. */
export const syncTokenOf = (change: number) => `${SYNC_TOKEN_PREFIX}${change}`;

/** The change number of a token; null when it is not one of ours. */
export function changeOfSyncToken(token: string): number | null {
  if (!token.startsWith(SYNC_TOKEN_PREFIX)) return null;
  const digits = token.slice(SYNC_TOKEN_PREFIX.length);
  return /^\d{1,15}$/.test(digits) ? Number(digits) : null;
}
