import { DateTime } from 'luxon';
import { firstNotice, repeatNotice, type NoticeRules } from './notice-times.ts';
import { nextOccurrence } from './recurrence.ts';
import { noticeRulesOf, seriesOf } from './task-record.ts';
import type { CompletionRow, TaskRow } from './tasks.store.ts';

/** The feed's window: the last 30 days and the coming 12 months. */
export const FEED_DAYS_BACK = 30;
export const FEED_MONTHS_AHEAD = 12;
/** A daily task has at most ~396 occurrences in the window; the cap only bounds what is stored. */
export const MAX_EVENTS_PER_TASK = 400;
/** Past this the soonest events are kept: a calendar client would not load much more. */
export const MAX_EVENTS_PER_FEED = 20_000;

const DAY_MS = 86_400_000;

/** One occurrence of a task as the calendar shows it. */
export type CalendarEvent = {
  task: TaskRow;
  /** The occurrence's due time. */
  start: number;
  /** When it was completed; null for one still to do. */
  completedAt: number | null;
  /** When what the event shows last changed: the task's last update, or the completion if later. */
  stamp: number;
  /** The times the server sends (or would send) its notices, in order; none for a completed one. */
  notices: number[];
};

export type FeedWindow = { from: number; to: number };

export function feedWindow(now: number, zone: string): FeedWindow {
  const ahead = DateTime.fromMillis(now, { zone }).plus({ months: FEED_MONTHS_AHEAD });
  return { from: now - FEED_DAYS_BACK * DAY_MS, to: ahead.isValid ? ahead.toMillis() : now };
}

/**
 * The notices of an occurrence not completed (docs/behaviour/tasks-and-notices.md): the first at its due time (past a
 * weekend for workday tasks), then, with overdue notices, the first slot of each notice hour after
 * it. A calendar cannot know when the occurrence is completed, so each hour is given once.
 */
function noticesOf(start: number, rules: NoticeRules): number[] {
  const first = firstNotice(start, rules);
  if (first === null) return [];
  const notices = [first];
  if (rules.overdueNotice) {
    for (const hour of rules.noticeHours) {
      const slot = repeatNotice(first, first, { ...rules, noticeHours: [hour] });
      if (slot !== null) notices.push(slot);
    }
  }
  return notices;
}

/**
 * The occurrences still to do within the window: the current one, then those Complete would move
 * to (later than both it and now; missed ones are skipped), up to the schedule's end.
 */
function dueTimes(task: TaskRow, zone: string, now: number, window: FeedWindow): number[] {
  if (task.active !== 1) return [];
  const times: number[] = [];
  if (task.schedule_time >= window.from && task.schedule_time <= window.to) times.push(task.schedule_time);
  const series = seriesOf(task, zone);
  const end = Math.min(window.to, task.schedule_end_time ?? Infinity);
  let next = nextOccurrence(series, task.occurrence_index, Math.max(task.schedule_time, now));
  while (next !== null && next.time <= end && times.length < MAX_EVENTS_PER_TASK) {
    if (next.time >= window.from) times.push(next.time);
    next = nextOccurrence(series, next.index, next.time);
  }
  return times;
}

/**
 * Every event of the feed, soonest first: the occurrences to do and those completed within the
 * window. A completed occurrence is named by its due time as the one to do was, so its event keeps
 * its identity and is shown once, as completed.
 */
export function calendarEvents(tasks: TaskRow[], completions: CompletionRow[], zone: string, now: number): CalendarEvent[] {
  const window = feedWindow(now, zone);
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const events = new Map<string, CalendarEvent>();
  for (const task of tasks) {
    const rules = noticeRulesOf(task, zone);
    for (const start of dueTimes(task, zone, now, window)) {
      events.set(`${task.id} ${start}`, { task, start, completedAt: null, stamp: task.last_updated, notices: noticesOf(start, rules) });
    }
  }
  for (const completion of completions) {
    const task = byId.get(completion.task_id);
    if (!task || completion.due_time < window.from || completion.due_time > window.to) continue;
    const stamp = Math.max(task.last_updated, completion.completed_at);
    events.set(`${task.id} ${completion.due_time}`, { task, start: completion.due_time, completedAt: completion.completed_at, stamp, notices: [] });
  }
  return [...events.values()]
    .sort((a, b) => a.start - b.start || a.task.id.localeCompare(b.task.id))
    .slice(0, MAX_EVENTS_PER_FEED);
}
