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
  bookmark_imports: BookmarkImportsTable;
  bookmark_archives: BookmarkArchivesTable;
  tasks: TasksTable;
  task_notices: TaskNoticesTable;
  task_completions: TaskCompletionsTable;
  task_calendar_counters: TaskCalendarCountersTable;
  task_calendar_changes: TaskCalendarChangesTable;
  task_lists: TaskListsTable;
  task_list_members: TaskListMembersTable;
  calendar_tokens: CalendarTokensTable;
  api_tokens: ApiTokensTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  app_passwords: AppPasswordsTable;
  book_search_preferences: BookSearchPreferencesTable;
  shelves: ShelvesTable;
  shelf_books: ShelfBooksTable;
  shelf_members: ShelfMembersTable;
  e_reader_devices: EReaderDevicesTable;
  reading_positions: ReadingPositionsTable;
  koreader_documents: KoreaderDocumentsTable;
  book_document_ids: BookDocumentIdsTable;
  push_subscriptions: PushSubscriptionsTable;
  ntfy_topics: NtfyTopicsTable;
  notice_done_tokens: NoticeDoneTokensTable;
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
  /** The browser root an imported bookmark sat in: '' for the menu (and bookmarks made here), `toolbar` or `unfiled`. */
  folder_root: Generated<string>;
  /** The folders below that root, outermost first, as a JSON list. */
  folder: Generated<string>;
  /** The browser keyword (`SHORTCUTURL`) the bookmark was imported with. */
  keyword: string | null;
  /** Read later (0034): `unread`, `read` or `archived`. */
  read_state: Generated<'unread' | 'read' | 'archived'>;
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
export type BookmarkIndexTable = Pick<BookmarksTable, 'owner_id' | 'host' | 'tags' | 'create_date' | 'update_date' | 'read_state'> & {
  bookmark_id: number;
};

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
 * The kept copy of a bookmark's page (bookmarks/archive/): `pending` while it is fetched, `kept`,
 * or `failed` with the reason; `source` says where the page came from.
 */
export interface BookmarkArchivesTable {
  bookmark_id: number;
  owner_id: string;
  status: 'pending' | 'kept' | 'failed';
  source: 'server' | 'upload';
  failure: string | null;
  title: string | null;
  byline: string | null;
  site_name: string | null;
  /** The readable article, sanitised, its images inside it as data: URLs. */
  html: string | null;
  text: string | null;
  /** Characters of the text, and its words. */
  length: number;
  words: number;
  images: number;
  /** Bytes of `html` and `text` together: what the owner's quota counts. */
  size: number;
  attempted_at: number;
  kept_at: number | null;
}

/**
 * A bookmark import that is writing (`running`, `alive_at` renewed while it does) or that stopped
 * before the end (`failed`, or `running` and no longer renewed); a finished one leaves no row.
 */
export interface BookmarkImportsTable {
  id: string;
  owner_id: string;
  /** Of the file's bytes: importing the same file again finishes the import. */
  file_sha256: string;
  /** Links the file holds, and those of them written so far. */
  links: number;
  imported: number;
  state: 'running' | 'failed';
  started_at: number;
  alive_at: number;
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
  /** 1 while `next_notice_time` is one the owner typed, which a change of the notice rules keeps. */
  notice_set_by_user: number;
  last_notice_time: number | null;
  emails: string;
  overdue_notice: number;
  notice_hours: string;
  notice_in_workday: number;
  comment: string;
  notice_error: string | null;
  /** A custom rule's RRULE value (schedule_type c); null for the six codes, whose rule is derived. */
  rrule: string | null;
  /** `due` or `done`: what the next occurrence is counted from. */
  repeat_from: string;
  /** JSON array of {id, text, done}. */
  checklist: string;
  /** The household list it is in (tasks/lists.store.ts); null: its owner's own task. */
  list_id: string | null;
  assignee_id: string | null;
  /** JSON array of user ids in turn order; `rotation_turn` counts the Completes since it was set. */
  rotation: string;
  rotation_turn: number;
}

/** A household list of tasks; its members see and act on its tasks as its owner does. */
export interface TaskListsTable {
  id: string;
  owner_id: string;
  name: string;
  created: number;
}

export interface TaskListMembersTable {
  list_id: string;
  user_id: string;
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
  /** Whose Web Push devices and ntfy topic get the notice too; null: mail only. */
  person_id: string | null;
  /** JSON: what a push or ntfy notice shows (notify/notice-message.ts); null: mail only. */
  push_message: string | null;
  /** JSON array of the channels the notice reached: `mail`, `ntfy`, `push:<subscription id>`. */
  delivered: Generated<string>;
}

/** A browser's Web Push subscription (one per device and user): where to send, and its keys. */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  /** The browser's P-256 public key and auth secret, base64url, as its PushSubscription gives them. */
  p256dh: string;
  auth: string;
  created_at: number;
}

/** The ntfy topic URL a user's notices are posted to. */
export interface NtfyTopicsTable {
  user_id: string;
  url: string;
  updated_at: number;
}

/** A Done link of a push or ntfy notice: single-use, it completes one occurrence. */
export interface NoticeDoneTokensTable {
  token_hash: string;
  task_id: string;
  owner_id: string;
  schedule_time: number;
  expires_at: number;
  used_at: number | null;
}

/** Each Complete of a task: the occurrence completed (its number and due time) and when. */
export interface TaskCompletionsTable {
  id: Generated<number>;
  task_id: string;
  owner_id: string;
  occurrence_index: number;
  due_time: number;
  completed_at: number;
  /** JSON array of {id, text, done}: the checklist at completion; null for completions before checklists. */
  checklist: string | null;
}

/** A calendar's change counter: `calendar` is a user's id (their own tasks) or `list:<id>` (a household list). */
export interface TaskCalendarCountersTable {
  calendar: string;
  last_change: number;
}

/** A task's latest change (or its deletion, kept as a tombstone) and the name CalDAV clients know it by. */
export interface TaskCalendarChangesTable {
  calendar: string;
  owner_id: string;
  task_id: string;
  change: number;
  deleted: number;
  uid: string;
  resource_name: string;
}

/** An e-reader's password (auth/app-passwords.ts): its SHA-256, never the password. */
export interface AppPasswordsTable {
  id: string;
  user_id: string;
  name: string;
  password_hash: string;
  created_at: number;
  last_used_at: number | null;
  /** JSON list of the SHA-256 of each MD5 KOReader may send for it; null when made before KOReader sync. */
  sync_keys: string | null;
}

/** An address a user mails books to (books/e-reader-devices.store.ts); `kind` is one of contract/e-readers.ts's. */
export interface EReaderDevicesTable {
  id: string;
  user_id: string;
  name: string;
  email: string;
  kind: string;
  max_bytes: number;
  created_at: number;
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

/** A user's book search settings (books/book-search-preferences.store.ts), as JSON of the contract's shape. */
export interface BookSearchPreferencesTable {
  user_id: string;
  preferences: string;
  updated_at: number;
}

/** A person's shelf (shelves/): `kind` is want, reading or read for the three built in, named for one they made. */
export interface ShelvesTable {
  id: string;
  owner_id: string;
  kind: string;
  name: string;
  /** The name folded (`shelfNameKey`): unique per owner. */
  name_key: string;
  created_at: number;
  updated_at: number;
}

/** A book on a shelf, by its catalogue id; who added it (a member of a shared shelf, or the owner). */
export interface ShelfBooksTable {
  shelf_id: string;
  book_id: string;
  added_by: string | null;
  added_at: number;
}

/** A member of the household a named shelf is shared with; `can_add` 1 when they may add books too. */
export interface ShelfMembersTable {
  shelf_id: string;
  user_id: string;
  can_add: number;
}

/** Where a user is in a book (reading/positions.store.ts): the newest write wins. */
export interface ReadingPositionsTable {
  user_id: string;
  book_id: string;
  /** 0 to 1. */
  percentage: number;
  /** The web reader's place (an EPUB CFI, a PDF page); null when KOReader wrote the position. */
  locator: string | null;
  device: string;
  device_id: string | null;
  /** KOReader's own place (an XPointer or a page), when KOReader wrote the position. */
  koreader_progress: string | null;
  updated_at: number;
}

/** KOReader's progress for a document id, exactly as it sent it (reading/koreader.store.ts). */
export interface KoreaderDocumentsTable {
  user_id: string;
  document: string;
  progress: string;
  percentage: number;
  device: string;
  device_id: string | null;
  updated_at: number;
}

/** The ids KOReader may give a file of the library (reading/document-ids.ts), with the file's size and time when worked out. */
export interface BookDocumentIdsTable {
  book_id: string;
  format: string;
  document: string;
  size: number;
  modified_at: number;
}
