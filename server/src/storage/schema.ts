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
  oidc_identities: OidcIdentitiesTable;
  bookmarks: BookmarksTable;
  bookmark_tags: BookmarkTagsTable;
  bookmark_facets: BookmarkFacetsTable;
  bookmark_index: BookmarkIndexTable;
  bookmark_index_content: BookmarkIndexContentTable;
  bookmark_index_tags: BookmarkIndexTagsTable;
  bookmark_index_versions: BookmarkIndexVersionsTable;
  tasks: TasksTable;
  task_notices: TaskNoticesTable;
  task_completions: TaskCompletionsTable;
  calendar_tokens: CalendarTokensTable;
  api_tokens: ApiTokensTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  app_passwords: AppPasswordsTable;
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
  /** When an administrator disabled the account; null while it may sign in. */
  disabled_at: number | null;
  /** 1 after an administrator set a temporary password, until its owner chooses another. */
  password_change_required: number;
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
  /** The device (its User-Agent) and address of the request that was given this token. */
  user_agent: string | null;
  address: string | null;
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
  /** The title's length in words, which ranks the matches (books/book-row.ts). */
  title_words: number;
  /** The identifier as a search matches it whole (books/book-row.ts). */
  identifier_key: string;
  series: string | null;
  series_index: number | null;
  /** JSON lists of strings. */
  tags: string;
  languages: string;
  rating: number | null;
  /** JSON object, type to value. */
  identifiers: string;
  has_cover: number;
}

/** A provider account (auth/oidc/) linked to a user: found by issuer and subject at every sign-in. */
export interface OidcIdentitiesTable {
  id: string;
  issuer: string;
  subject: string;
  user_id: string;
  created_at: number;
  last_sign_in_at: number;
}

/** Each user's bookmarks (bookmarks/); `tags` is a JSON list, `host` the link's host name. */
export interface BookmarksTable {
  id: Generated<number>;
  owner_id: string;
  title: string;
  link: string;
  /** The link as links are compared to find one already saved (bookmarks/link-key.ts). */
  link_key: string;
  host: string;
  tags: string;
  note: string | null;
  create_date: number;
  update_date: number;
}

export interface BookmarkTagsTable {
  bookmark_id: number;
  owner_id: string;
  tag: string;
  create_date: number;
}

export interface BookmarkFacetsTable {
  owner_id: string;
  /** `all` (key '') counts the owner's bookmarks. */
  kind: 'all' | 'host' | 'tag';
  /** A host, or a tag as the owner's bookmarks spell it. */
  key: string;
  /** The key compared case-insensitively (`foldTag`): one spelling per folded tag has bookmarks. */
  folded: string;
  doc_count: number;
}

/** What a search reads of each entry; PostgreSQL adds a `search` tsvector that only raw SQL touches. */
export type BookmarkIndexTable = Pick<BookmarksTable, 'owner_id' | 'host' | 'tags' | 'create_date' | 'update_date'> & { bookmark_id: number };

/** The text of each entry, as the bookmark was when indexed. */
export type BookmarkIndexContentTable = Pick<BookmarksTable, 'title' | 'link' | 'note'> & { bookmark_id: number };

export interface BookmarkIndexTagsTable {
  bookmark_id: number;
  tag: string;
}

export interface BookmarkIndexVersionsTable {
  owner_id: string;
  version: string;
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

/** Each Complete of a task: the occurrence completed (its number and due time) and when. */
export interface TaskCompletionsTable {
  id: Generated<number>;
  task_id: string;
  owner_id: string;
  occurrence_index: number;
  due_time: number;
  completed_at: number;
}

/** An e-reader's password (auth/app-passwords.ts): its SHA-256, never the password. */
export interface AppPasswordsTable {
  id: string;
  user_id: string;
  name: string;
  password_hash: string;
  created_at: number;
  last_used_at: number | null;
}

/** A user's calendar subscription (auth/calendar-tokens.ts): the token's hash and the feed last served under it. */
export interface CalendarTokensTable {
  user_id: string;
  token_hash: string;
  created_at: number;
  feed_etag: string | null;
  feed_changed_at: number | null;
}

/** Personal API tokens (auth/api-tokens.*): the token itself is never stored, only its SHA-256. */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  scope: 'read' | 'write';
  token_hash: string;
  created_at: number;
  /** Written at most once a minute per token. */
  last_used_at: number | null;
}

/** An administrator's invitation to sign up with one e-mail (admin/invitations.ts). */
export interface InvitationsTable {
  token_hash: string;
  email: string;
  invited_by: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A forgotten password's reset link (auth/password-resets.ts). */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
