import { z } from 'zod';
import { DATE_RANGE_MESSAGE, isInDateRange } from './date-range.ts';

export const NO_MORE_RESULTS = 'NO_MORE_RESULTS';
/** The fields of a bookmark's own that its index entry holds. */
export const BOOKMARK_INDEXED_FIELDS = ['title', 'link', 'note', 'tags'] as const;
export type BookmarkIndexedField = (typeof BOOKMARK_INDEXED_FIELDS)[number];
/** What a search can look in: the entry's fields, and the text of the bookmark's kept page (`text`, decision 0043). */
export const BOOKMARK_SEARCH_FIELDS = [...BOOKMARK_INDEXED_FIELDS, 'text'] as const;
export type BookmarkSearchField = (typeof BOOKMARK_SEARCH_FIELDS)[number];
export const DEFAULT_BOOKMARK_PAGE_SIZE = 10;
export const MAX_BOOKMARK_PAGE_SIZE = 100;
/** How many hosts and tags a reply's groups list. */
export const BOOKMARK_GROUP_COUNT = 20;

/**
 * Read later (issue 39): a bookmark waits to be read, has been read, or is put away. New bookmarks
 * are unread; the Unread list shows those waiting (docs/behaviour/bookmarks.md).
 */
export const BOOKMARK_STATES = ['unread', 'read', 'archived'] as const;
export type BookmarkState = (typeof BOOKMARK_STATES)[number];
export const BookmarkStateValue = z.enum(BOOKMARK_STATES, { error: `must be one of ${BOOKMARK_STATES.join(', ')}` });

export const BOOKMARK_LIMITS = { title: 500, link: 2048, tag: 100, tags: 50, note: 10_000 } as const;

/** Tags compare case-insensitively: "News" and "news" are one tag. */
export const foldTag = (tag: string) => tag.toLowerCase();

/** The tags without empty ones and without repeats (in any case), each as first written. */
export function distinctTags(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const folded = foldTag(tag);
    if (tag === '' || seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}

/**
 * Tags text as docs/behaviour/bookmarks.md reads it: trimmed; split on commas (each part trimmed) when it has one,
 * else on whitespace. Empty parts and repeats are dropped.
 */
export function splitTags(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const parts = trimmed.includes(',') ? trimmed.split(',').map((part) => part.trim()) : trimmed.split(/\s+/);
  return distinctTags(parts);
}

/** An http or https URL with a host: what a bookmark's link must be. */
export const isHttpUrl = (value: string) => {
  if (!URL.canParse(value)) return false;
  const { protocol, hostname } = new URL(value);
  return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
};

/** A missing value and a value of the wrong type, told apart. */
const required = (issue: { input?: unknown }) => (issue.input == null ? 'is required' : 'must be text');

const title = z
  .string({ error: required })
  .trim()
  .min(1, 'is required')
  .max(BOOKMARK_LIMITS.title, `must be at most ${BOOKMARK_LIMITS.title} characters`);
const link = z
  .string({ error: required })
  .trim()
  // One message for one problem: an empty link is not also "not a web address".
  .min(1, { error: 'is required', abort: true })
  .max(BOOKMARK_LIMITS.link, { error: `must be at most ${BOOKMARK_LIMITS.link} characters`, abort: true })
  .refine(isHttpUrl, 'must be a web address starting with http:// or https://');
/**
 * Tags text split as docs/behaviour/bookmarks.md says, or a list whose tags are kept whole (trimmed, empty ones and
 * repeats dropped): a tag may hold spaces and commas, as a browser folder's name does.
 */
const tags = z
  .union([z.string(), z.array(z.string())], { error: 'must be a list of tags or a text' })
  .transform((value) => (typeof value === 'string' ? splitTags(value) : distinctTags(value.map((tag) => tag.trim()))))
  .pipe(
    z
      .array(z.string().max(BOOKMARK_LIMITS.tag, `Each tag must be at most ${BOOKMARK_LIMITS.tag} characters`))
      .max(BOOKMARK_LIMITS.tags, `A bookmark may have at most ${BOOKMARK_LIMITS.tags} tags`),
  )
  .default([]);
/** Trimmed; empty means none. */
const note = z
  .string({ error: 'must be text' })
  .trim()
  .max(BOOKMARK_LIMITS.note, `must be at most ${BOOKMARK_LIMITS.note} characters`)
  .nullish()
  .transform((value) => (value ? value : undefined));

/** `POST /bookmarks/` (docs/behaviour/bookmarks.md). */
export const BookmarkInput = z.strictObject({ title, link, tags, note });
/** Each field's own rule, for a form that checks one field before it sends it. */
export const BOOKMARK_FIELD_VALUES = { title, link, tags, note } as const;
export type BookmarkInput = z.output<typeof BookmarkInput>;
/** What the client sends: tags may still be text. */
export type BookmarkDraft = z.input<typeof BookmarkInput>;

/** A bookmark as the API replies it (docs/behaviour/bookmarks.md). Times are ISO strings. */
export const Bookmark = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  link: z.string(),
  tags: z.array(z.string()),
  note: z.string().optional(),
  create_date: z.string(),
  update_date: z.string(),
  /** Read later: unread, read or archived (`PUT /bookmarks/{id}/state` changes it). */
  state: BookmarkStateValue,
  /** Set by the index routes: the bookmark has an entry in the search index. */
  indexed: z.boolean().optional(),
});
export type Bookmark = z.infer<typeof Bookmark>;

/**
 * `PUT /bookmarks/{id}` and `POST /api/bookmarks/`: the whole bookmark (docs/behaviour/bookmarks.md). The server
 * keeps the times and the indexed flag itself, so those are accepted and ignored; so is the state, which only
 * `PUT /bookmarks/{id}/state` changes (a form holding an older copy never undoes a "mark read").
 */
export const BookmarkUpdate = BookmarkInput.extend({
  id: z.number({ error: 'must be a number' }).int().positive(),
  create_date: z.string().optional(),
  update_date: z.string().optional(),
  indexed: z.boolean().optional(),
  state: z.string().optional(),
});
export type BookmarkUpdate = z.output<typeof BookmarkUpdate>;

export const BookmarkIdParams = z.strictObject({
  id: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be positive').max(Number.MAX_SAFE_INTEGER),
});

/** `PUT /bookmarks/{id}/state`. */
export const BookmarkStateBody = z.strictObject({ state: BookmarkStateValue });

export const BookmarkGroup = z.object({ key: z.string(), doc_count: z.number().int().nonnegative() });
export type BookmarkGroup = z.infer<typeof BookmarkGroup>;

/** An ISO date (UTC day) or date-time with a zone, within the accepted range. */
const isoTime = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'must be an ISO date or a date-time with a zone' })
  .refine((value) => isInDateRange(Date.parse(value)), DATE_RANGE_MESSAGE);

/** `GET /bookmarks/` query (docs/behaviour/bookmarks.md); the cursor comes in the `pageCursor` header. */
export const BookmarkListQuery = z.strictObject({
  pageSize: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_BOOKMARK_PAGE_SIZE, `must be at most ${MAX_BOOKMARK_PAGE_SIZE}`)
    .default(DEFAULT_BOOKMARK_PAGE_SIZE),
  tag: z.string().trim().max(BOOKMARK_LIMITS.tag).optional(),
  start_date: isoTime.optional(),
  end_date: isoTime.optional(),
  /** Only the bookmarks in this read-later state (the Unread list is `state=unread`); all when absent. */
  state: BookmarkStateValue.optional(),
}).refine((query) => inOrder(query.start_date, query.end_date), { message: 'must not be before the start date', path: ['end_date'] });
export type BookmarkListQuery = z.infer<typeof BookmarkListQuery>;

/** The bookmark page response (docs/behaviour/bookmarks.md), with the collection's groups. */
export const BookmarkPage = z.object({
  items: z.array(Bookmark),
  /** How many bookmarks the list's filters match, all pages together. */
  total: z.number().int().nonnegative(),
  /** Send back as the `pageCursor` header for the next page; NO_MORE_RESULTS when done. */
  cursor: z.string(),
  host_groups: z.array(BookmarkGroup),
  tag_groups: z.array(BookmarkGroup),
});
export type BookmarkPage = z.infer<typeof BookmarkPage>;

/** Whether an end, when both are given, does not come before its start. */
const inOrder = (start: string | undefined, end: string | undefined) => start === undefined || end === undefined || Date.parse(end) >= Date.parse(start);
export const END_BEFORE_START_MESSAGE = 'must not be before the start';

const TimeRange = z
  .strictObject({ start: isoTime.optional(), end: isoTime.optional() })
  .refine((range) => inOrder(range.start, range.end), { message: END_BEFORE_START_MESSAGE, path: ['end'] });

/** `POST /api/bookmarks/query` body: the query spec of docs/behaviour/bookmarks.md. */
export const BookmarkQuerySpec = z.strictObject({
  key_words: z
    .array(z.string().max(200, 'Each key word must be at most 200 characters'), { error: 'key words are required' })
    .min(1, 'key words are required')
    .max(32, 'must be at most 32 words'),
  fields: z.array(z.enum(BOOKMARK_SEARCH_FIELDS, { error: `must be among ${BOOKMARK_SEARCH_FIELDS.join(', ')}` })).optional(),
  hosts: z.array(z.string().max(255), { error: 'must be a list of hosts' }).max(100).optional(),
  tags: z.array(z.string().max(BOOKMARK_LIMITS.tag), { error: 'must be a list of tags' }).max(100).optional(),
  create_time_range: TimeRange.optional(),
  update_time_range: TimeRange.optional(),
  /** Only matches in this read-later state; the groups count those matches. */
  state: BookmarkStateValue.optional(),
  from: z.number().int().min(0).optional(),
  size: z.number().int().min(1).max(MAX_BOOKMARK_PAGE_SIZE).optional(),
});
export type BookmarkQuerySpec = z.infer<typeof BookmarkQuerySpec>;

export const BookmarkQueryParams = z.strictObject({
  from: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more').max(1_000_000).optional(),
  size: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_BOOKMARK_PAGE_SIZE, `must be at most ${MAX_BOOKMARK_PAGE_SIZE}`)
    .optional(),
});

/** The bookmark search result (docs/behaviour/bookmarks.md). */
export const BookmarkSearchResult = z.object({
  bookmarks: z.array(Bookmark),
  total_count: z.number().int().nonnegative(),
  /** The same number as `total_count`, under the name the list's reply uses. */
  total: z.number().int().nonnegative(),
  host_groups: z.array(BookmarkGroup),
  tag_groups: z.array(BookmarkGroup),
  /**
   * By bookmark id, for those of the page found by their kept page's text: a few words around the
   * first of the searched ones, each matched word between SNIPPET_MATCH_START and SNIPPET_MATCH_END.
   */
  snippets: z
    .record(z.string(), z.string().max(1000))
    .optional()
    .describe("A few words of the kept page's text of each bookmark of the page found by it, by bookmark id; matches between U+0002 and U+0003"),
});
export type BookmarkSearchResult = z.infer<typeof BookmarkSearchResult>;

const LineMessage = z.object({ line: z.number().int().positive(), message: z.string() });

/** A link an import left out, and why: not a web link (its scheme named), already saved, or repeated in the file. */
const SkippedLink = z.object({ line: z.number().int().positive(), link: z.string(), reason: z.string() });
export type SkippedLink = z.infer<typeof SkippedLink>;

/** `POST /bookmarks/import` reply. */
export const BookmarkImportReply = z.object({
  imported: z.number().int().nonnegative(),
  /** Links that are not http(s), and links the user has or the file repeats. */
  skipped: z.number().int().nonnegative(),
  /** The skipped links with the reason of each (the first 100; a long link cut to 200 characters). */
  skipped_links: z.array(SkippedLink),
  /** Links that could not be kept (the first 100). */
  errors: z.array(LineMessage),
  /** Bookmarks kept with a field cut to its limit. */
  shortened: z.number().int().nonnegative(),
  /** Bookmarks whose file gives no readable date: they are dated at the import. */
  undated: z.number().int().nonnegative(),
  /** What was shortened or dated at the import, by line (the first 100). */
  warnings: z.array(LineMessage),
  /** The file ended inside its list (a download cut short): what it held was imported. */
  cut_short: z.boolean(),
});
export type BookmarkImportReply = z.infer<typeof BookmarkImportReply>;

/**
 * The user's bookmark import as it goes (issue 18): `receiving` while the file arrives, `reading`
 * while its entries are read and added. The counts are the importer's own.
 */
export const BookmarkImportProgress = z.object({
  phase: z.enum(['receiving', 'reading', 'done', 'failed']),
  bytes: z.number().int().nonnegative(),
  /** Entries of the file read so far. */
  read: z.number().int().nonnegative(),
  imported: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  started_at: z.string(),
});
export type BookmarkImportProgress = z.infer<typeof BookmarkImportProgress>;

/**
 * An import that stopped before it had written every link of its file (the server stopped, or
 * failed): the links it wrote stay, each bookmark with its index entry. Importing the same file
 * again adds the rest, since links already saved are skipped, and then this is gone.
 */
export const CutShortBookmarkImport = z.object({
  id: z.string(),
  started_at: z.string(),
  /** The links of the file, and how many of them were written. */
  links: z.number().int().nonnegative(),
  imported: z.number().int().nonnegative(),
});
export type CutShortBookmarkImport = z.infer<typeof CutShortBookmarkImport>;

/**
 * `GET /bookmarks/import/progress`: the user's running import, else their last one since the
 * server started; and their latest import that was cut short, until it is finished or dismissed.
 */
export const CurrentBookmarkImport = z.object({ import: BookmarkImportProgress.nullable(), cut_short: CutShortBookmarkImport.nullable() });
export type CurrentBookmarkImport = z.infer<typeof CurrentBookmarkImport>;

/** `GET /bookmarks/tags`: every tag of the user with how many bookmarks carry it, most used first. */
export const TagCount = z.object({ tag: z.string(), count: z.number().int().positive() });
export type TagCount = z.infer<typeof TagCount>;
export const TagCounts = z.array(TagCount);

/** How many bookmarks one bulk call may name. */
export const MAX_BULK_IDS = 1000;
const BulkIds = z
  .array(z.number({ error: 'must be bookmark ids' }).int().positive(), { error: 'must be a list of bookmark ids' })
  .min(1, 'must name at least one bookmark')
  .max(MAX_BULK_IDS, `must be at most ${MAX_BULK_IDS} bookmarks`);

/** `POST /bookmarks/bulk`: delete several bookmarks, or add one tag to each (linkding's bulk edit). */
export const BookmarkBulkAction = z.discriminatedUnion(
  'action',
  [
    z.strictObject({ action: z.literal('delete'), ids: BulkIds }),
    z.strictObject({
      action: z.literal('add_tag'),
      ids: BulkIds,
      tag: z.string({ error: 'tag is required' }).trim().min(1, 'tag is required').max(BOOKMARK_LIMITS.tag, `must be at most ${BOOKMARK_LIMITS.tag} characters`),
    }),
  ],
  { error: 'action: must be delete or add_tag' },
);
export type BookmarkBulkAction = z.output<typeof BookmarkBulkAction>;

/** How many of the named bookmarks changed (ids that are not the caller's, or already tagged, are left alone). */
export const BookmarkBulkReply = z.object({ count: z.number().int().nonnegative() });
export type BookmarkBulkReply = z.infer<typeof BookmarkBulkReply>;

/** `POST /bookmarks/preview`: the page whose title and description a new bookmark may take. */
export const BookmarkPreviewBody = z.strictObject({ link });
/** The page's title and description (as the note), each cut to its field's limit; empty when the page has none. */
export const BookmarkPreview = z.object({ title: z.string(), note: z.string() });
export type BookmarkPreview = z.infer<typeof BookmarkPreview>;

/** `GET /bookmarks/lookup?link=…`: is this link saved already? */
export const BookmarkLookupQuery = z.strictObject({
  link: z
    .string({ error: 'link is required' })
    .trim()
    .min(1, 'link is required')
    .max(BOOKMARK_LIMITS.link, `must be at most ${BOOKMARK_LIMITS.link} characters`),
});
/**
 * The user's bookmark of the same link (the oldest, if several), compared after normalising the
 * scheme and host case, default ports and an empty path; null when there is none.
 */
export const BookmarkLookup = z.object({ bookmark: Bookmark.nullable() });
export type BookmarkLookup = z.infer<typeof BookmarkLookup>;

/** The browser bookmarks file (Netscape format) both export calls send. */
export const BOOKMARKS_FILE = { type: 'text/html; charset=utf-8', name: 'bookmarks.html' } as const;
