import { z } from 'zod';

export const MAX_TASK_LIST_NAME = 100;
export const MAX_TASK_LIST_MEMBERS = 50;

const ListName = z
  .string({ error: (issue) => (issue.input == null ? 'is required' : 'must be text') })
  .transform((name) => name.trim().replace(/\s+/g, ' '))
  .pipe(z.string().min(1, 'is required').max(MAX_TASK_LIST_NAME, `must be at most ${MAX_TASK_LIST_NAME} characters`));

/** `POST /api/task-lists` and `PATCH /api/task-lists/{id}`. */
export const TaskListBody = z.strictObject({ name: ListName });
export type TaskListBody = z.infer<typeof TaskListBody>;

/** `PUT /api/task-lists/{id}/members`: the e-mail addresses of everyone the list is shared with, replacing the members. */
export const TaskListMembersBody = z.strictObject({
  emails: z
    .array(
      z
        .email({ error: 'Enter e-mail addresses like ada@example.org' })
        .max(254, 'must each be at most 254 characters')
        .transform((email) => email.toLowerCase()),
      { error: 'must be a list' },
    )
    .max(MAX_TASK_LIST_MEMBERS, `may be at most ${MAX_TASK_LIST_MEMBERS}`)
    .transform((emails) => [...new Set(emails)]),
});
export type TaskListMembersBody = z.infer<typeof TaskListMembersBody>;

/** One of a list's people: its owner or a member. The e-mail shows to the list's owner, who typed it, and to the person themself. */
export const TaskListPerson = z.object({ id: z.string(), display_name: z.string(), email: z.string().nullable() });
export type TaskListPerson = z.infer<typeof TaskListPerson>;

/** A household list as its owner or a member sees it: `people` are its owner first, then its members; tasks may be assigned to any of them. */
export const TaskList = z.object({
  id: z.string(),
  name: z.string(),
  owner_id: z.string(),
  /** Whether the caller owns it (renames, deletes and shares it) or is a member. */
  owned: z.boolean(),
  people: z.array(TaskListPerson),
  created: z.string(),
});
export type TaskList = z.infer<typeof TaskList>;
export const TaskLists = z.array(TaskList);

export const TaskListParams = z.strictObject({ id: z.string().min(1).max(64) });
