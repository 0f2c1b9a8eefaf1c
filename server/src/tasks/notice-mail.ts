import { DateTime } from 'luxon';
import type { NoticeMessage } from '../notify/notice-message.ts';
import { type TurnTask, turnMemberOf } from './lists.turn.ts';
import type { TaskRow } from './tasks.store.ts';

export type NoticeMail = { recipients: string[]; subject: string; body: string };

type Owner = { email: string; zone: string };

const dueText = (task: TaskRow, zone: string) =>
  DateTime.fromMillis(task.schedule_time, { zone }).toFormat("cccc d LLLL yyyy, HH:mm '('ZZZZ')'", { locale: 'en-US' });

const taskUrl = (task: TaskRow, publicUrl: string) => `${publicUrl}/task/${encodeURIComponent(task.id)}`;

/**
 * The notice of docs/behaviour/tasks-and-notices.md: the task, its due time in the owner's zone, the
 * comment and a link. It goes to the task's `emails` and to `turnEmail`, the address of the person
 * whose turn it is in a household list; to the owner when there is neither.
 */
export function composeNotice(task: TaskRow, owner: Owner, publicUrl: string, turnEmail: string | null): NoticeMail {
  const emails = JSON.parse(task.emails) as string[];
  const lines = [`${task.name}`, '', `Due: ${dueText(task, owner.zone)}`];
  if (task.comment) lines.push('', task.comment);
  lines.push('', taskUrl(task, publicUrl));
  return {
    recipients: emails.length > 0 || turnEmail !== null ? recipientsWith(emails, turnEmail) : [owner.email],
    subject: `Task due: ${task.name}`,
    body: `${lines.join('\n')}\n`,
  };
}

/**
 * A push or ntfy notice's text at most: Web Push carries about 4 KB, ntfy makes a longer message
 * an attachment, and the task's page has the whole comment.
 */
const MAX_PUSH_BODY = 600;

/** The same notice as a push or ntfy notice shows it: the name as its title, the due time and comment below. */
export function composePushMessage(task: TaskRow, zone: string, publicUrl: string): NoticeMessage {
  const text = [`Due: ${dueText(task, zone)}`, ...(task.comment ? [task.comment] : [])].join('\n');
  const body = text.length > MAX_PUSH_BODY ? `${text.slice(0, MAX_PUSH_BODY - 1).trimEnd()}…` : text;
  return { task_id: task.id, owner_id: task.owner_id, schedule_time: task.schedule_time, title: task.name, body, url: taskUrl(task, publicUrl) };
}

/**
 * Whose devices and ntfy topic a task's notices go to (its mail goes to its addresses): the one
 * place that chooses the person, whoever's turn it is in a household list, else the owner.
 */
export const personToNotify = (task: TaskRow & TurnTask): string => turnMemberOf(task)?.id ?? task.owner_id;

/** The task's addresses and the turn's, each once in any case. */
function recipientsWith(emails: string[], turnEmail: string | null): string[] {
  if (turnEmail === null || emails.some((email) => email.toLowerCase() === turnEmail.toLowerCase())) return emails;
  return [...emails, turnEmail];
}

/** One notice per task, occurrence and notice time: the key that makes sending idempotent. */
export const noticeKey = (taskId: string, scheduleTime: number, noticeTime: number) =>
  `${taskId}.${scheduleTime}.${noticeTime}`;
