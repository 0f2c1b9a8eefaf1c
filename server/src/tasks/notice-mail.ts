import { DateTime } from 'luxon';
import type { TaskRow } from './tasks.store.ts';

export type NoticeMail = { recipients: string[]; subject: string; body: string };

type Owner = { email: string; zone: string };

/**
 * The notice of docs/behaviour/tasks-and-notices.md: the task, its due time in the owner's zone, the
 * comment and a link. It goes to the task's `emails` and to `turnEmail`, the address of the person
 * whose turn it is in a household list; to the owner when there is neither.
 */
export function composeNotice(task: TaskRow, owner: Owner, publicUrl: string, turnEmail: string | null): NoticeMail {
  const emails = JSON.parse(task.emails) as string[];
  const due = DateTime.fromMillis(task.schedule_time, { zone: owner.zone }).toFormat("cccc d LLLL yyyy, HH:mm '('ZZZZ')'", { locale: 'en-US' });
  const lines = [`${task.name}`, '', `Due: ${due}`];
  if (task.comment) lines.push('', task.comment);
  lines.push('', `${publicUrl}/task/${encodeURIComponent(task.id)}`);
  return {
    recipients: emails.length > 0 || turnEmail !== null ? recipientsWith(emails, turnEmail) : [owner.email],
    subject: `Task due: ${task.name}`,
    body: `${lines.join('\n')}\n`,
  };
}

/** The task's addresses and the turn's, each once in any case. */
function recipientsWith(emails: string[], turnEmail: string | null): string[] {
  if (turnEmail === null || emails.some((email) => email.toLowerCase() === turnEmail.toLowerCase())) return emails;
  return [...emails, turnEmail];
}

/** One notice per task, occurrence and notice time: the key that makes sending idempotent. */
export const noticeKey = (taskId: string, scheduleTime: number, noticeTime: number) =>
  `${taskId}.${scheduleTime}.${noticeTime}`;
