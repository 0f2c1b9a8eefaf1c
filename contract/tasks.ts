import { z } from 'zod';

/**
 * Schedule type codes of docs/behaviour/tasks-and-notices.md: the step between two occurrences of a
 * task, or o for a one-off task, which has one occurrence and is done once it is completed, or c for
 * a custom repeat rule (the task's `rrule`).
 */
export const SCHEDULE_TYPES = [
  { value: 'o', label: 'Does not repeat' },
  { value: 'y', label: 'Yearly' },
  { value: 'q', label: 'Quarterly' },
  { value: 'm', label: 'Monthly' },
  { value: 'b', label: 'Bi-Weekly' },
  { value: 'w', label: 'Weekly' },
  { value: 'd', label: 'Daily' },
  { value: 'c', label: 'Custom rule' },
] as const;
/** `c` (custom): any other repeat rule, given as an RRULE (docs/behaviour/tasks-and-notices.md). */
export const ScheduleType = z.enum(['o', 'y', 'q', 'm', 'b', 'w', 'd', 'c'], { error: 'must be one of o, y, q, m, b, w, d, c' });
export type ScheduleType = z.infer<typeof ScheduleType>;
/** The kinds that repeat in the specification's fixed steps: all but the one-off and the custom rule. */
export type RepeatingType = Exclude<ScheduleType, 'o' | 'c'>;
/** Whether the next occurrence follows the previous due time or the time it was completed. */
export const RepeatFrom = z.enum(['due', 'done'], { error: 'must be due or done' });
export type RepeatFrom = z.infer<typeof RepeatFrom>;
export const MAX_CHECKLIST_ITEMS = 100;
export const MAX_CHECKLIST_TEXT = 500;
export const ChecklistItem = z.object({ id: z.string(), text: z.string(), done: z.boolean() });
export type ChecklistItem = z.infer<typeof ChecklistItem>;

export const DEFAULT_TASK_PAGE_SIZE = 5;
export const MAX_TASK_PAGE_SIZE = 100;
export const NO_MORE_RESULTS = 'NO_MORE_RESULTS';
export const MORE_RESULTS_AFTER_LIMIT = 'MORE_RESULTS_AFTER_LIMIT';
export const MAX_TASK_NAME = 200;
export const MAX_TASK_COMMENT = 10_000;
export const MAX_TASK_EMAILS = 20;

const IsoTime = z.string();

/** A task as the API sends it (docs/behaviour/tasks-and-notices.md); times are UTC ISO strings with the Z suffix. */
export const Task = z.object({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
  create_time: IsoTime,
  last_updated: IsoTime,
  first_schedule_time: IsoTime,
  schedule_end_time: IsoTime.nullable(),
  schedule_type: ScheduleType,
  /** The RRULE value without `RRULE:` (e.g. FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH); the six codes' own rule too; null for a one-off task. */
  rrule: z.string().nullable(),
  repeat_from: RepeatFrom,
  schedule_time: IsoTime,
  next_notice_time: IsoTime.nullable(),
  emails: z.array(z.string()),
  overdue_notice: z.boolean(),
  notice_hours: z.array(z.number().int()),
  notice_in_workday: z.boolean(),
  comment: z.string(),
  /** The last failed send of a notice, until a send succeeds again (docs/behaviour/tasks-and-notices.md). */
  notice_error: z.string().nullable(),
  /** The household list it is in (contract/task-lists.ts); null: the owner's own task. */
  list_id: z.string().nullable(),
  /** Whom it is assigned to among the list's people; null: nobody in particular. */
  assignee_id: z.string().nullable(),
  /** The people who take turns, one occurrence each, in order; empty: no rotation. */
  rotation: z.array(z.string()),
  /** Whose turn the current occurrence is: the rotation's current person, else the assignee. */
  turn_id: z.string().nullable(),
  /** Reset (all unticked) at each new occurrence. */
  checklist: z.array(ChecklistItem),
});
export type Task = z.infer<typeof Task>;

export const TaskIdParams = z.strictObject({ id: z.string().min(1).max(64) });

/** Which tasks the list shows: active ones (the default list), done ones (made inactive by Complete past their end), or all. */
export const TASK_STATUSES = ['active', 'done', 'all'] as const;
export const TaskStatus = z.enum(TASK_STATUSES, { error: 'must be one of active, done, all' });
export type TaskStatus = z.infer<typeof TaskStatus>;

/** `list=` on the task list: the tasks of one household list by its id, or `none`, the caller's own unlisted ones. */
export const OWN_TASKS = 'none';

export const TaskPageQuery = z.strictObject({
  status: TaskStatus.default('active'),
  list: z.string().min(1, 'must be a list id or none').max(64, 'must be a list id or none').optional(),
  pageSize: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_TASK_PAGE_SIZE, `must be at most ${MAX_TASK_PAGE_SIZE}`)
    .default(DEFAULT_TASK_PAGE_SIZE),
});

/** `GET /schedule` reply: `cursor` is the next page's cursor, or NO_MORE_RESULTS. */
export const TaskPage = z.object({
  tasks: z.array(Task),
  cursor: z.string(),
  queryInfo: z.object({
    endCursor: z.string().nullable(),
    moreResults: z.enum([MORE_RESULTS_AFTER_LIMIT, NO_MORE_RESULTS]),
  }),
});
export type TaskPage = z.infer<typeof TaskPage>;

/** One Complete of a task: the occurrence completed (its number in the series and its due time) and when. */
export const TaskCompletion = z.object({
  occurrence: z.number().int().nonnegative(),
  due_time: IsoTime,
  completed_at: IsoTime,
  /** The checklist as it was when the occurrence was completed; null where none was kept. */
  checklist: z.array(ChecklistItem).nullable(),
});
export type TaskCompletion = z.infer<typeof TaskCompletion>;

/**
 * One entry of the Done list: an occurrence completed, with the task it belongs to. A one-off task
 * completed is one entry; a repeating task has one for each occurrence completed.
 */
export const DoneEntry = TaskCompletion.extend({
  task_id: z.string(),
  name: z.string(),
  schedule_type: ScheduleType,
});
export type DoneEntry = z.infer<typeof DoneEntry>;

export const DonePageQuery = TaskPageQuery.omit({ status: true, list: true });

/** `GET /schedule/completions` reply: the latest completed first; `cursor` is the next page's, or NO_MORE_RESULTS. */
export const DonePage = z.object({ done: z.array(DoneEntry), cursor: z.string() });
export type DonePage = z.infer<typeof DonePage>;

/** How many completions the task page shows: the newest. */
export const TASK_COMPLETIONS_SHOWN = 100;

/** `GET /api/users/me/export/tasks`: every task of the user, done ones too, each with its whole completion history (oldest first). */
export const TasksExport = z.object({
  exported_at: IsoTime,
  tasks: z.array(Task.extend({ completions: z.array(TaskCompletion) })),
});
export type TasksExport = z.infer<typeof TasksExport>;
