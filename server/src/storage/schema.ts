import type { Generated } from 'kysely';

/**
 * Tables as Kysely sees them. Times are epoch milliseconds and booleans are 0/1 integers on
 * both SQLite and PostgreSQL, so every query compares and sorts the same way on both.
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  books: BooksTable;
  tasks: TasksTable;
  task_notices: TaskNoticesTable;
}

export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  photo: string | null;
  password_hash: string | null;
  timezone: string | null;
  is_admin: number;
  created_at: number;
  updated_at: number;
}

/** One row per refresh token; a family is one sign-in and every token rotated from it. */
export interface SessionsTable {
  id: string;
  family_id: string;
  user_id: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** The catalogue (books/); PostgreSQL adds a `search` tsvector that only raw SQL touches. */
export interface BooksTable {
  seq: Generated<number>;
  id: string;
  title: string;
  author: string;
  identifier: string;
  publish_date: string | null;
  publisher: string;
  created: number | null;
  updated: number | null;
  comment: string | null;
  path: string;
  formats: string;
  format_mask: number;
}

/**
 * Recurring tasks (tasks/). The current occurrence is number `occurrence_index` of the series
 * anchored at `anchor_time`; `last_notice_time` is the last notice of that occurrence, if any.
 * `emails` and `notice_hours` are JSON arrays.
 */
export interface TasksTable {
  id: string;
  owner_id: string;
  name: string;
  active: number;
  create_time: number;
  last_updated: number;
  first_schedule_time: number;
  schedule_end_time: number | null;
  schedule_type: string;
  anchor_time: number;
  occurrence_index: number;
  schedule_time: number;
  next_notice_time: number | null;
  last_notice_time: number | null;
  emails: string;
  overdue_notice: number;
  notice_hours: string;
  notice_in_workday: number;
  comment: string;
  notice_error: string | null;
}

/** The notice outbox: one row per notice, keyed by task, occurrence and notice time, kept after sending. */
export interface TaskNoticesTable {
  id: string;
  task_id: string;
  /** JSON array of addresses. */
  recipients: string;
  subject: string;
  body: string;
  due_at: number;
  created_at: number;
  attempts: number;
  next_attempt_at: number;
  sent_at: number | null;
  last_error: string | null;
}
