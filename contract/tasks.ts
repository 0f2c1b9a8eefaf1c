import { z } from 'zod';

/** Schedule type codes of spec §3: the step between two occurrences of a task. */
export const SCHEDULE_TYPES = [
  { value: 'y', label: 'Yearly' },
  { value: 'q', label: 'Quarterly' },
  { value: 'm', label: 'Monthly' },
  { value: 'b', label: 'Bi-Weekly' },
  { value: 'w', label: 'Weekly' },
  { value: 'd', label: 'Daily' },
] as const;
export const ScheduleType = z.enum(['y', 'q', 'm', 'b', 'w', 'd'], { error: 'must be one of y, q, m, b, w, d' });
export type ScheduleType = z.infer<typeof ScheduleType>;

export const DEFAULT_TASK_PAGE_SIZE = 5;
export const MAX_TASK_PAGE_SIZE = 100;
export const NO_MORE_RESULTS = 'NO_MORE_RESULTS';
export const MORE_RESULTS_AFTER_LIMIT = 'MORE_RESULTS_AFTER_LIMIT';
export const MAX_TASK_NAME = 200;
export const MAX_TASK_COMMENT = 10_000;
export const MAX_TASK_EMAILS = 20;

const IsoTime = z.string();

/** A task as the API sends it (spec §3); times are UTC ISO strings with the Z suffix. */
export const Task = z.object({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
  create_time: IsoTime,
  last_updated: IsoTime,
  first_schedule_time: IsoTime,
  schedule_end_time: IsoTime.nullable(),
  schedule_type: ScheduleType,
  schedule_time: IsoTime,
  next_notice_time: IsoTime.nullable(),
  emails: z.array(z.string()),
  overdue_notice: z.boolean(),
  notice_hours: z.array(z.number().int()),
  notice_in_workday: z.boolean(),
  comment: z.string(),
  /** The last failed send of a notice, until a send succeeds again (DESIGN §5 Delivery). */
  notice_error: z.string().nullable(),
});
export type Task = z.infer<typeof Task>;

export const TaskIdParams = z.strictObject({ id: z.string().min(1).max(64) });

/** Which tasks the list shows: active ones (the spec's list), done ones (made inactive by Complete past their end), or all. */
export const TASK_STATUSES = ['active', 'done', 'all'] as const;
export const TaskStatus = z.enum(TASK_STATUSES, { error: 'must be one of active, done, all' });
export type TaskStatus = z.infer<typeof TaskStatus>;

export const TaskPageQuery = z.strictObject({
  status: TaskStatus.default('active'),
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
});
export type TaskCompletion = z.infer<typeof TaskCompletion>;

/** How many completions the task page shows: the newest. */
export const TASK_COMPLETIONS_SHOWN = 100;

/** `GET /api/users/me/export/tasks`: every task of the user, done ones too, each with its whole completion history (oldest first). */
export const TasksExport = z.object({
  exported_at: IsoTime,
  tasks: z.array(Task.extend({ completions: z.array(TaskCompletion) })),
});
export type TasksExport = z.infer<typeof TasksExport>;
