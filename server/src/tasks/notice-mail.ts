import { DateTime } from 'luxon';
import type { TaskRow } from './tasks.store.ts';

export type NoticeMail = { recipients: string[]; subject: string; body: string };

type Owner = { email: string; zone: string };

/** The notice of docs/behaviour/tasks-and-notices.md: the task, its due time in the owner's zone, the comment and a link. */
export function composeNotice(task: TaskRow, owner: Owner, publicUrl: string): NoticeMail {
  const emails = JSON.parse(task.emails) as string[];
  const due = DateTime.fromMillis(task.schedule_time, { zone: owner.zone }).toFormat("cccc d LLLL yyyy, HH:mm '('ZZZZ')'", { locale: 'en-US' });
  const lines = [`${task.name}`, '', `Due: ${due}`];
  if (task.comment) lines.push('', task.comment);
  lines.push('', `${publicUrl}/task/${encodeURIComponent(task.id)}`);
  return {
    recipients: emails.length > 0 ? emails : [owner.email],
    subject: `Task due: ${task.name}`,
    body: `${lines.join('\n')}\n`,
  };
}

/** One notice per task, occurrence and notice time: the key that makes sending idempotent. */
export const noticeKey = (taskId: string, scheduleTime: number, noticeTime: number) =>
  `${taskId}.${scheduleTime}.${noticeTime}`;
