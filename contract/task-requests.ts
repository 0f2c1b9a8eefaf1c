import { DateTime } from 'luxon';
import { z } from 'zod';
import { DATE_RANGE_MESSAGE, isInDateRange } from './date-range.ts';
import { MAX_CHECKLIST_TEXT, MAX_TASK_COMMENT, MAX_TASK_EMAILS, MAX_TASK_NAME, RepeatFrom, ScheduleType } from './tasks.ts';

// The request side of the task gateway, apart from its replies: it needs a date library, which the
// client's start-up script (which parses replies) does without.

/** Epoch ms of an ISO date-time; without a zone suffix it is read as UTC (docs/behaviour/tasks-and-notices.md). NaN when invalid. */
function parseIsoDateTime(value: string): number {
  // A time is required: a bare date would silently mean midnight.
  if (!value.includes('T')) return Number.NaN;
  const parsed = DateTime.fromISO(value, { zone: 'utc' });
  return parsed.isValid ? parsed.toMillis() : Number.NaN;
}

/** An ISO date-time within the accepted range in, epoch milliseconds out. */
export const DateTimeInput = z
  .string({ error: (issue) => (issue.input == null ? 'is required' : 'must be an ISO date-time such as 2026-03-08T09:00:00Z') })
  .max(40, 'must be an ISO date-time such as 2026-03-08T09:00:00Z')
  .transform((value, context) => {
    const ms = parseIsoDateTime(value);
    if (Number.isNaN(ms)) {
      context.addIssue({ code: 'custom', message: 'must be an existing ISO date-time such as 2026-03-08T09:00:00Z' });
      return z.NEVER;
    }
    if (!isInDateRange(ms)) {
      context.addIssue({ code: 'custom', message: DATE_RANGE_MESSAGE });
      return z.NEVER;
    }
    return ms;
  });

/** Whole sentences: the e-mail one names no field, and the hours one agrees with its plural label. */
export const EMAIL_MESSAGE = 'Enter e-mail addresses like ada@example.org';
export const NOTICE_HOURS_MESSAGE = 'are whole hours from 0 to 23';
/** An end before the due time would end the series before its current occurrence. */
export const END_BEFORE_DUE_MESSAGE = 'End time must not be before the due time';
export const DUE_AFTER_END_MESSAGE = 'Due time must not be after the end time';
export const END_BEFORE_FIRST_DUE_MESSAGE = 'End time must not be before the first due time';

const TaskName = z
  .string({ error: (issue) => (issue.input == null ? 'is required' : 'must be text') })
  .trim()
  .min(1, 'is required').max(MAX_TASK_NAME, `must be at most ${MAX_TASK_NAME} characters`);
const Emails = z
  .array(z.email({ error: EMAIL_MESSAGE }).max(254, 'must each be at most 254 characters'), { error: 'must be a list' })
  .max(MAX_TASK_EMAILS, `may be at most ${MAX_TASK_EMAILS}`);
/** A notice hour, checked by the client before it is added to the list too. */
export const NoticeHour = z.number({ error: NOTICE_HOURS_MESSAGE }).int(NOTICE_HOURS_MESSAGE).min(0, NOTICE_HOURS_MESSAGE).max(23, NOTICE_HOURS_MESSAGE);
const NoticeHours = z
  .array(NoticeHour, { error: 'must be a list of whole hours from 0 to 23' })
  .max(24, 'may be at most 24')
  .transform((hours) => [...new Set(hours)].sort((a, b) => a - b));
const Comment = z.string({ error: 'must be text' }).max(MAX_TASK_COMMENT, `must be at most ${MAX_TASK_COMMENT} characters`);
const Flag = z.boolean({ error: 'must be true or false' });
const RowId = z.string({ error: 'must be an id' }).min(1, 'must be an id').max(64, 'must be an id');
/** Each person once, in turn order. */
const Rotation = z
  .array(RowId, { error: 'must be a list of ids' })
  .max(50, 'may be at most 50')
  .refine((ids) => new Set(ids).size === ids.length, 'must name each person once');
/** An RRULE value such as FREQ=WEEKLY;BYDAY=MO,TH; the server reads and bounds it (tasks/recurrence.ts). */
const RuleText = z.string({ error: 'must be text such as FREQ=WEEKLY;BYDAY=MO' }).trim().min(1, 'is required').max(500, 'must be at most 500 characters');

/** Every field `PUT /schedule/{id}` may change, with the value each accepts. */
export const TASK_FIELD_VALUES = {
  name: TaskName,
  schedule_end_time: DateTimeInput.nullable(),
  schedule_type: ScheduleType,
  rrule: RuleText.nullable(),
  repeat_from: RepeatFrom,
  schedule_time: DateTimeInput,
  next_notice_time: DateTimeInput.nullable(),
  emails: Emails,
  notice_hours: NoticeHours,
  comment: Comment,
  overdue_notice: Flag,
  notice_in_workday: Flag,
  list_id: RowId.nullable(),
  assignee_id: RowId.nullable(),
  rotation: Rotation,
} as const;
export type TaskField = keyof typeof TASK_FIELD_VALUES;
export const TASK_FIELDS = Object.keys(TASK_FIELD_VALUES) as TaskField[];

/** One field and its parsed value (times as epoch ms). */
export type TaskFieldChange = {
  [K in TaskField]: { key: K; value: z.output<(typeof TASK_FIELD_VALUES)[K]> };
}[TaskField];

const TaskUpdate = z
  .strictObject({
    type: z.literal('update'),
    key: z.enum(TASK_FIELDS, { error: `must be one of ${TASK_FIELDS.join(', ')}` }),
    value: z.unknown(),
  })
  .transform((body, context): { type: 'update'; change: TaskFieldChange } => {
    const parsed = TASK_FIELD_VALUES[body.key].safeParse(body.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        // Named by the field it changes, so that the message carries that field's label.
        context.addIssue({ code: 'custom', message: issue.message, path: [body.key, ...issue.path] });
      }
      return z.NEVER;
    }
    return { type: 'update', change: { key: body.key, value: parsed.data } as TaskFieldChange };
  });

/** `PUT /schedule/{id}` (docs/behaviour/tasks-and-notices.md): change one field, or complete the current occurrence. */
export const TaskAction = z.discriminatedUnion('type', [TaskUpdate, z.strictObject({ type: z.literal('complete') })], {
  error: 'type must be update or complete',
});
export type TaskAction = z.output<typeof TaskAction>;

/** `POST /schedule/` (docs/behaviour/tasks-and-notices.md): name and first time; the other fields of a task may be given too. */
export const CreateTaskBody = z.strictObject({
  name: TaskName,
  first_schedule_time: DateTimeInput,
  schedule_type: ScheduleType.default('d'),
  /** When given, the rule decides the schedule type (one of the six codes where it says the same, else c). */
  rrule: RuleText.nullable().default(null),
  repeat_from: RepeatFrom.default('due'),
  schedule_end_time: DateTimeInput.nullable().default(null),
  emails: Emails.default([]),
  notice_hours: NoticeHours.default([]),
  overdue_notice: Flag.default(true),
  notice_in_workday: Flag.default(false),
  comment: Comment.default(''),
  list_id: RowId.nullable().default(null),
  assignee_id: RowId.nullable().default(null),
  rotation: Rotation.default([]),
}).superRefine((body, context) => {
  if (body.schedule_end_time !== null && body.schedule_end_time < body.first_schedule_time) {
    context.addIssue({ code: 'custom', message: END_BEFORE_FIRST_DUE_MESSAGE, path: ['schedule_end_time'] });
  }
});
export type CreateTaskBody = z.output<typeof CreateTaskBody>;


const ChecklistText = z
  .string({ error: (issue) => (issue.input == null ? 'is required' : 'must be text') })
  .trim()
  .min(1, 'is required')
  .max(MAX_CHECKLIST_TEXT, `must be at most ${MAX_CHECKLIST_TEXT} characters`);

/** `POST /schedule/{id}/checklist`: one more item, unticked, at the end. */
export const ChecklistAddBody = z.strictObject({ text: ChecklistText });
/** `PUT /schedule/{id}/checklist/{itemId}`: its text, its tick, or both. */
export const ChecklistChangeBody = z
  .strictObject({ text: ChecklistText.optional(), done: z.boolean({ error: 'must be true or false' }).optional() })
  .refine((body) => body.text !== undefined || body.done !== undefined, { message: 'Give text or done' });
export type ChecklistChangeBody = z.output<typeof ChecklistChangeBody>;
export const ChecklistItemParams = z.strictObject({ id: z.string().min(1).max(64), itemId: z.string().min(1).max(64) });
