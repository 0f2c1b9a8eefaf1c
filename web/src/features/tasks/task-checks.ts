import { firstProblem } from '../../../../contract/field-labels.ts';
import {
  ChecklistAddBody,
  CreateTaskBody,
  DUE_AFTER_END_MESSAGE,
  END_BEFORE_DUE_MESSAGE,
  NoticeHour,
  TASK_FIELD_VALUES,
  type TaskField,
} from '../../../../contract/task-requests.ts';
import type { Task } from '../../../../contract/tasks.ts';
import type { ParsedItem } from '../../components/list-editor.tsx';

// The checks the client makes before it sends a task's field: the contract's own rules, so that the
// words are the server's (issue 12), and the server still checks everything.

/** Why the server would refuse this value of the field, or null. */
export function taskValueProblem(key: TaskField, value: unknown): string | null {
  const parsed = TASK_FIELD_VALUES[key].safeParse(value);
  return parsed.success ? null : firstProblem(key, parsed.error.issues);
}

/** Why a checklist item's text would be refused. */
export function taskChecklistTextProblem(text: string): string | null {
  const parsed = ChecklistAddBody.shape.text.safeParse(text);
  return parsed.success ? null : firstProblem('text', parsed.error.issues);
}

/** Why a new task's first due time would be refused (the create call's rule, which a field's update does not have). */
export function firstDueProblem(iso: string): string | null {
  const parsed = CreateTaskBody.shape.first_schedule_time.safeParse(iso);
  return parsed.success ? null : firstProblem('first_schedule_time', parsed.error.issues);
}

/** Why a time cannot be saved: the field's own rule, then an end before the due time or a due time after the end. */
export function taskTimeProblem(key: 'schedule_time' | 'schedule_end_time' | 'next_notice_time', iso: string | null, task: Task): string | null {
  const own = taskValueProblem(key, iso);
  if (own !== null || iso === null) return own;
  const at = Date.parse(iso);
  if (key === 'schedule_end_time' && at < Date.parse(task.schedule_time)) return END_BEFORE_DUE_MESSAGE;
  if (key === 'schedule_time' && task.schedule_end_time !== null && at > Date.parse(task.schedule_end_time)) return DUE_AFTER_END_MESSAGE;
  return null;
}

/** A notice hour typed into its list: whole hours from 0 to 23 (docs/behaviour/tasks-and-notices.md: other input is not added). */
export function parseNoticeHour(text: string): ParsedItem<number> {
  const hour = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  const parsed = NoticeHour.safeParse(hour);
  return parsed.success ? { item: parsed.data } : { problem: firstProblem('notice_hours', parsed.error.issues)! };
}

/** An e-mail address typed into its list. */
export function parseEmail(text: string): ParsedItem<string> {
  const problem = taskValueProblem('emails', [text]);
  return problem === null ? { item: text } : { problem };
}
