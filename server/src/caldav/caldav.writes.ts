import type { z } from 'zod';
import { ChecklistChangeBody, CreateTaskBody, TASK_FIELD_VALUES, type TaskFieldChange } from '../../../contract/task-requests.ts';
import type { Clock } from '../clock.ts';
import type { TaskSync } from '../tasks/task-sync.ts';
import type { TasksService } from '../tasks/tasks.service.ts';
import type { Calendar, CalendarObject } from './calendars.ts';
import { DavError } from './dav-errors.ts';
import { type ClientTodo, parseClientTodo, ruleWithoutEnd } from './vtodo.ts';

/** The conditions of a write: `If-Match` (one of these ETags) and `If-None-Match: *` (no object there yet). */
export type WritePreconditions = { ifMatch: string[] | null; ifNoneMatch: boolean };

const iso = (ms: number) => new Date(ms).toISOString();

const preconditionFailed = (why: string) => new DavError(412, why);

function checkPreconditions(existing: CalendarObject | null, { ifMatch, ifNoneMatch }: WritePreconditions): void {
  if (ifNoneMatch && existing) throw preconditionFailed('The task already exists here (If-None-Match: *)');
  if (ifMatch === null) return;
  if (!existing) throw preconditionFailed('There is no task here to match (If-Match)');
  if (!ifMatch.includes('*') && !ifMatch.includes(existing.etag)) {
    throw preconditionFailed('The task has changed since you read it (If-Match); sync again first');
  }
}

/** Checked by the contract's own rules, so a client's values are held to what the web API holds them to. */
function checked<T>(result: z.ZodSafeParseResult<T>): T {
  if (result.success) return result.data;
  throw new DavError(400, result.error.issues.map((issue) => `${issue.path.join('.') || 'task'}: ${issue.message}`).join('; '));
}

function fieldChange<K extends keyof typeof TASK_FIELD_VALUES>(key: K, value: unknown): TaskFieldChange {
  const schema: z.ZodType = TASK_FIELD_VALUES[key];
  return { key, value: checked(schema.safeParse(value)) } as TaskFieldChange;
}

/**
 * The changes that make the task what the client's VTODO says. An end and a due time moving
 * together are applied in the order that keeps the end after the due time at each step.
 */
function changesOf(current: CalendarObject['task'], todo: ClientTodo): TaskFieldChange[] {
  const changes: TaskFieldChange[] = [];
  if (todo.name !== current.name) changes.push(fieldChange('name', todo.name));
  if (todo.comment !== current.comment) changes.push(fieldChange('comment', todo.comment));
  if (!sameRule(todo.rrule, current.rrule)) changes.push(fieldChange('rrule', todo.rrule));
  const due = todo.due !== null && todo.due !== current.due ? fieldChange('schedule_time', iso(todo.due)) : null;
  const end = todo.end !== current.end ? fieldChange('schedule_end_time', todo.end === null ? null : iso(todo.end)) : null;
  const endFirst = end !== null && (todo.end === null || todo.end >= current.due);
  for (const change of endFirst ? [end, due] : [due, end]) if (change) changes.push(change);
  return changes;
}

type Options = {
  sync: Pick<TaskSync, 'zoneOf'>;
  tasks: Pick<TasksService, 'create' | 'edit' | 'act' | 'delete' | 'addChecklistItem' | 'changeChecklistItem' | 'removeChecklistItem'>;
  clock: Clock;
  objectNamed(userId: string, calendar: Calendar, resourceName: string): Promise<CalendarObject | null>;
};

/** Two RRULE values that say the same, whatever the order of their parts. */
const partsInOrder = (rule: string) => ruleWithoutEnd(rule).split(';').sort().join(';');
const sameRule = (a: string | null, b: string | null) => (a === null || b === null ? a === b : partsInOrder(a) === partsInOrder(b));

/** Whether the task as stored says all the client said of it: then the client's copy is current, and needs no reading back. */
function saysTheSame(stored: ClientTodo, sent: ClientTodo): boolean {
  return (
    stored.name === sent.name &&
    stored.comment === sent.comment &&
    (sent.due === null || stored.due === sent.due) &&
    sameRule(stored.rrule, sent.rrule) &&
    stored.end === sent.end &&
    stored.completed === sent.completed
  );
}

/** The outcome of a PUT: whether it made the task, and the ETag to send back (none when the task as stored differs from what was sent). */
export type PutOutcome = { created: boolean; etag: string | null };

/** A client's PUT and DELETE of calendar objects, through the tasks service: the same rules as the web app's. */
export function createCalDavWrites({ sync, tasks, clock, objectNamed }: Options) {
  /**
   * A checklist item's VTODO: its SUMMARY renames the item, its STATUS ticks it or not. A client's
   * new VTODO part of a task (RELATED-TO) is refused: the item would live under a name of the
   * server's, not the client's (docs/behaviour/caldav.md).
   */
  async function putItem(userId: string, calendar: Calendar, existing: CalendarObject | null, todo: ClientTodo): Promise<PutOutcome> {
    if (!existing?.parent) throw new DavError(403, 'Checklist items are added in Organiser; a client ticks, renames and deletes them');
    if (todo.uid !== existing.task.uid) throw new DavError(400, 'The UID of a calendar object cannot change', { namespace: 'urn:ietf:params:xml:ns:caldav', name: 'no-uid-conflict' });
    const change = { ...(todo.name !== existing.task.name ? { text: todo.name } : {}), ...(todo.completed === existing.task.active ? { done: todo.completed } : {}) };
    if (Object.keys(change).length > 0) {
      await tasks.changeChecklistItem(userId, existing.parent.id, existing.task.id, checked(ChecklistChangeBody.safeParse(change)));
    }
    const stored = await objectNamed(userId, calendar, existing.task.resourceName);
    const same = stored !== null && stored.task.name === todo.name && stored.task.active !== todo.completed;
    return { created: false, etag: same ? stored.etag : null };
  }

  async function outcome(userId: string, calendar: Calendar, resourceName: string, sent: ClientTodo, zone: string, created: boolean): Promise<PutOutcome> {
    const stored = await objectNamed(userId, calendar, resourceName);
    const same = stored !== null && saysTheSame(parseClientTodo(stored.text, zone), sent);
    return { created, etag: same ? stored.etag : null };
  }

  return {
    /**
     * A new VTODO makes a task (a VTODO without a due time is due now); a known one edits it, and
     * one marked completed completes its current occurrence (a repeating task moves to the next).
     * A new VTODO in a list's calendar makes a task of that list. Everything is checked before
     * anything is written.
     */
    async put(userId: string, calendar: Calendar, resourceName: string, existing: CalendarObject | null, body: string, conditions: WritePreconditions): Promise<PutOutcome> {
      checkPreconditions(existing, conditions);
      const zone = await sync.zoneOf(userId);
      const todo = parseClientTodo(body, zone);
      if (existing?.parent || (!existing && todo.parent !== null)) return putItem(userId, calendar, existing, todo);
      if (!existing) {
        const due = todo.due ?? clock.now();
        const created = await tasks.create(
          userId,
          checked(
            CreateTaskBody.safeParse({
              name: todo.name,
              first_schedule_time: iso(due),
              schedule_type: todo.rrule === null ? 'o' : 'c',
              rrule: todo.rrule,
              schedule_end_time: todo.end === null ? null : iso(todo.end),
              comment: todo.comment,
              list_id: calendar.tasks.listId,
            }),
          ),
          { uid: todo.uid, resourceName },
        );
        if (todo.completed) await tasks.act(userId, created.id, { type: 'complete' });
        return outcome(userId, calendar, resourceName, { ...todo, due }, zone, true);
      }
      if (todo.uid !== existing.task.uid) throw new DavError(400, 'The UID of a calendar object cannot change', { namespace: 'urn:ietf:params:xml:ns:caldav', name: 'no-uid-conflict' });
      const changes = changesOf(existing.task, todo);
      // Against the version the changes were worked out from: a write that landed meanwhile makes this one a 412.
      const edited = await tasks.edit(userId, existing.task.id, changes, existing.task.change);
      if (todo.completed && edited.active) await tasks.act(userId, existing.task.id, { type: 'complete' });
      return outcome(userId, calendar, resourceName, todo, zone, false);
    },

    async delete(userId: string, existing: CalendarObject, conditions: WritePreconditions): Promise<void> {
      checkPreconditions(existing, conditions);
      if (existing.parent) await tasks.removeChecklistItem(userId, existing.parent.id, existing.task.id);
      else await tasks.delete(userId, existing.task.id);
    },
  };
}
export type CalDavWrites = ReturnType<typeof createCalDavWrites>;
