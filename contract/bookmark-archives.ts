import { z } from 'zod';

/** Reading speed the reading time is counted at: 230 words a minute, a common figure for adults reading on a screen. */
export const WORDS_PER_MINUTE = 230;

/** Minutes to read `words`, at least one for a page with any text. */
export const readingMinutes = (words: number) => (words === 0 ? 0 : Math.max(1, Math.round(words / WORDS_PER_MINUTE)));

export const ArchiveStatus = z.enum(['pending', 'kept', 'failed']);
export type ArchiveStatus = z.infer<typeof ArchiveStatus>;

/** A bookmark's kept copy without its text (docs/behaviour/bookmarks.md, "Kept copies"). */
export const BookmarkArchive = z.object({
  bookmark_id: z.number().int().positive(),
  status: ArchiveStatus,
  /** `server`: fetched by the server; `upload`: sent from the browser (a SingleFile capture or the bookmarklet). */
  source: z.enum(['server', 'upload']),
  /** Why the last fetch failed, for `failed`. */
  failure: z.string().nullable(),
  title: z.string().nullable(),
  byline: z.string().nullable(),
  site_name: z.string().nullable(),
  /** Characters and words of the article's text. */
  length: z.number().int().nonnegative(),
  words: z.number().int().nonnegative(),
  reading_minutes: z.number().int().nonnegative(),
  images: z.number().int().nonnegative(),
  /** Bytes the copy counts against the owner's quota. */
  size: z.number().int().nonnegative(),
  attempted_at: z.string(),
  kept_at: z.string().nullable(),
});
export type BookmarkArchive = z.infer<typeof BookmarkArchive>;

/** Up to 100 bookmark ids, comma-separated: the copies of a page of cards in one request. */
export const ArchiveSummariesQuery = z.strictObject({
  ids: z
    .string()
    .regex(/^\d{1,15}(,\d{1,15}){0,99}$/, 'must be up to 100 bookmark ids separated by commas')
    .transform((value) => [...new Set(value.split(',').map(Number))]),
});
export const ArchiveSummaries = z.object({ archives: z.array(BookmarkArchive) });
export type ArchiveSummaries = z.infer<typeof ArchiveSummaries>;

/** The user's kept copies against their quota (`ARCHIVE_QUOTA_MB`). */
export const ArchiveUsage = z.object({
  copies: z.number().int().nonnegative(),
  used_bytes: z.number().int().nonnegative(),
  quota_bytes: z.number().int().positive(),
});
export type ArchiveUsage = z.infer<typeof ArchiveUsage>;
