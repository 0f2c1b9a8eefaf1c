import { z } from 'zod';

/** The last load of the Calibre library folder (`CALIBRE_LIBRARY`), when one is watched. */
export const LibraryLoad = z.object({
  status: z.enum(['ok', 'failed']),
  /** When the load ended, ISO. */
  at: z.string(),
  /** Books loaded (ok) or records refused (error_count); both 0 when the load failed. */
  count: z.number().int().nonnegative(),
  error_count: z.number().int().nonnegative(),
  /** Why the load failed; the catalogue stayed as it was. Null when it succeeded. */
  error: z.string().nullable(),
});
export type LibraryLoad = z.infer<typeof LibraryLoad>;

export const LibraryStatus = z.object({
  /** A load is under way. */
  loading: z.boolean(),
  /** The last load that ended, ok or failed; null until the first one ends. */
  last_load: LibraryLoad.nullable(),
  /** When the catalogue was last loaded from the library, ISO; null until it has been. */
  last_success_at: z.string().nullable(),
});
export type LibraryStatus = z.infer<typeof LibraryStatus>;

/**
 * The book search's word index: not yet asked for (idle), being read from its file or built
 * (at start and after each load: the index before answers meanwhile, and until there is one a
 * search is refused with a 503), with how far it is in percent, ready with this many books and
 * where it came from, or failed to build.
 */
export const SearchIndexStatus = z.object({
  state: z.enum(['idle', 'building', 'ready', 'failed']),
  books: z.number().int().nonnegative().optional(),
  progress: z.number().int().min(0).max(100).optional(),
  /** Where the ready index came from: its file in `DATA_DIR`, or built from the database. */
  from: z.enum(['file', 'database']).optional(),
});
export type SearchIndexStatus = z.infer<typeof SearchIndexStatus>;

export const HealthReply = z.object({
  status: z.literal('ok'),
  storage: z.enum(['sqlite', 'postgres']),
  /** Only when the catalogue follows a Calibre library folder. */
  library: LibraryStatus.optional(),
  /** Absent when searches do not use the word index. */
  search_index: SearchIndexStatus.optional(),
});
export type HealthReply = z.infer<typeof HealthReply>;
