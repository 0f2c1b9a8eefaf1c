import { z } from 'zod';
import { BOOK_FORMATS, BOOK_SEARCH_FIELDS, type BookSearchField } from './book-fields.ts';
import { ErrorReply } from './errors.ts';

export {
  BOOK_FORMATS,
  BOOK_INDEXED_FIELDS,
  BOOK_SEARCH_FIELDS,
  type BookIndexedField,
  type BookSearchField,
  SNIPPET_MATCH_END,
  SNIPPET_MATCH_START,
} from './book-fields.ts';
export const MAX_BOOK_PAGE_SIZE = 100;

/** A book as the catalogue keeps it and the export writes it, one per line (docs/behaviour/books.md). */
export const CatalogueBook = z.object({
  /** Calibre's book id, as a string. */
  id: z.string().min(1).max(64),
  title: z.string().max(2000),
  /** Authors joined with ' & ', as Calibre shows them. */
  author: z.string().max(2000),
  /** ISBN when there is one, else the identifier whose type comes first alphabetically, as `type:value`. */
  identifier: z.string().max(500),
  /** YYYY-MM-DD, or null when Calibre has none. */
  publish_date: z.string().nullable(),
  publisher: z.string().max(500),
  /** ISO timestamps. */
  created: z.string().nullable(),
  updated: z.string().nullable(),
  /** HTML as Calibre stores it; sanitise before rendering. */
  comment: z.string().max(200_000).nullable(),
  /** The main file: the epub when there is one, else the first format. */
  path: z.string().max(4000),
  /** Every format's file path. */
  formats: z.array(z.string().max(4000)).max(50),
  /**
   * What Calibre has beyond the original fields (docs/behaviour/books.md). Defaults, so that an export written
   * before they existed still loads: no series, no tags, no languages, no rating, no cover.
   */
  series: z.string().max(500).nullable().default(null),
  /** The book's place in its series (Calibre allows fractions: 1.5); null without a series. */
  series_index: z.number().min(0).max(100_000).nullable().default(null),
  tags: z.array(z.string().max(500)).max(500).default([]),
  /** ISO 639-2 codes as Calibre keeps them (`fra`, `eng`), in Calibre's order. */
  languages: z.array(z.string().max(20)).max(50).default([]),
  /** Stars, 0.5 to 5 in halves (Calibre stores twice this); null when not rated. */
  rating: z.number().min(0.5).max(5).multipleOf(0.5).nullable().default(null),
  /** Every identifier, `type` (lower case) to value; `identifier` is the one chosen of them. */
  identifiers: z.record(z.string().min(1).max(100), z.string().max(500)).default({}),
  /** Whether Calibre has a cover image for the book (`cover.jpg` in its folder). */
  has_cover: z.boolean().default(false),
});
export type CatalogueBook = z.infer<typeof CatalogueBook>;

/** One format of a book on disk in the library folder (issue 13). */
export const BookFile = z.object({
  /** The extension in lower case, as the download's URL names it: `epub`. */
  format: z.string(),
  /** In bytes. */
  size: z.number().int().nonnegative(),
  /** `GET /api/books/{id}/file/{format}`. */
  url: z.string(),
});
export type BookFile = z.infer<typeof BookFile>;

/**
 * A book in a reply: `index` is its position in the whole result (from + i); `comment` only on
 * request; `files` on the one book's reply only, the formats that can be downloaded.
 */
export const Book = CatalogueBook.omit({ comment: true }).extend({
  index: z.number().int().nonnegative(),
  comment: z.string().nullable().optional(),
  files: z.array(BookFile).optional().describe('The formats on disk in the library folder, each with its download URL (one book only)'),
  cover_url: z.string().nullable().optional().describe('`GET /api/books/{id}/cover` when the cover is on disk, else null (one book only)'),
  progress: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .optional()
    .describe('How far the signed-in user has read, 0 to 1, or null without a position (one book only; absent for the books key)'),
});
export type Book = z.infer<typeof Book>;

export const BookResults = z.object({
  total: z.number().int().nonnegative(),
  books: z.array(Book),
  /**
   * The folder that every book's files lie in: the Calibre library they were exported from, or
   * else the leading directory all paths share; '' when there is none. Paths are shown below it.
   */
  library_folder: z.string().describe('The folder every book file lies in (the Calibre library); paths are shown below it'),
  /**
   * Whether this server has a Calibre library folder (`CALIBRE_LIBRARY`), from which covers and
   * files are served: without one every cover and file is a 404, and the client asks for none.
   */
  // A default, so that a reply from a server before it parses: such a server serves no files.
  files_served: z.boolean().default(false).describe('Whether covers and files are served from a Calibre library folder'),
  /**
   * How far the signed-in user has read each book of the page that has a position, by book id, 0
   * to 1 (issue 38): beside the books, since their JSON is kept and sent again for every reader.
   */
  progress: z
    .record(z.string(), z.number().min(0).max(1))
    .default({})
    .describe("How far the signed-in user has read the page's books that have a position, by book id (0 to 1)"),
  /**
   * Whether the books' text can be searched (the `text` field): the Calibre library has calibre's
   * full-text database and its text has been read (decision 0039). Without it, `text` finds nothing.
   */
  text_searchable: z.boolean().default(false).describe("Whether the `text` field searches the books' text (Calibre's full-text database)"),
  /**
   * For each book of the page found by its text, by book id, a few words of it around the matches:
   * plain text, each matched word between U+0002 and U+0003 (to be shown as text, never as HTML).
   */
  snippets: z
    .record(z.string(), z.string().max(1000))
    .default({})
    .describe('A few words of the text of each book of the page found by it, by book id; matches between U+0002 and U+0003'),
});
export type BookResults = z.infer<typeof BookResults>;

/** How a listing without words can be ordered; `series` is a series' own order (its index). */
export const BOOK_SORTS = ['updated', 'title', 'author', 'newest', 'published', 'rating', 'series'] as const;
export type BookSort = (typeof BOOK_SORTS)[number];

/** What the catalogue can be browsed by, each a page of values with counts. */
export const BOOK_FACETS = ['authors', 'series', 'tags', 'languages', 'formats', 'publishers'] as const;
export type BookFacet = (typeof BOOK_FACETS)[number];

const facetValue = z.string().min(1, 'must not be empty').max(500, 'must be at most 500 characters');

const booleanString = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((value) => value === 'true');

/** `GET /api/books` (docs/behaviour/books.md). */
export const BookQuery = z.strictObject({
  /** Comma-joined words (docs/behaviour/books.md); empty lists the catalogue by last update. */
  keys: z.string().max(1000, 'must be at most 1000 characters').default(''),
  fields: z
    .string()
    .default('title')
    .transform((value) => value.split(',').map((field) => field.trim()).filter(Boolean))
    .pipe(
      z
        .array(z.enum(BOOK_SEARCH_FIELDS, { error: `must be among ${BOOK_SEARCH_FIELDS.join(', ')}` }))
        .transform((fields) => (fields.length === 0 ? (['title'] as BookSearchField[]) : [...new Set(fields)])),
    ),
  from: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more').max(10_000_000).default(0),
  size: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_BOOK_PAGE_SIZE, `must be at most ${MAX_BOOK_PAGE_SIZE}`)
    .default(10),
  format: z
    .enum(['', ...BOOK_FORMATS], { error: `must be empty or one of ${BOOK_FORMATS.join(', ')}` })
    .default(''),
  includeComment: booleanString.default(false),
  /** The order of a listing without words (a search with words is ranked): by last update unless asked. */
  sort: z.enum(BOOK_SORTS, { error: `must be one of ${BOOK_SORTS.join(', ')}` }).default('updated'),
  /** Browsing (issue 37): the books of one author, series, tag, language or publisher, exactly as named. */
  author: facetValue.optional(),
  series: facetValue.optional(),
  tag: facetValue.optional(),
  language: facetValue.optional(),
  publisher: facetValue.optional(),
});
export type BookQuery = z.infer<typeof BookQuery>;

/** The query's browsing filters, the facet each belongs to. */
export const BROWSE_FILTERS = { author: 'authors', series: 'series', tag: 'tags', language: 'languages', publisher: 'publishers' } as const;
export type BrowseFilter = keyof typeof BROWSE_FILTERS;

/** `GET /api/books/browse?facet=`: the facet's values that start with `letter`, with the letters that have any. */
export const BrowseQuery = z.strictObject({
  facet: z.enum(BOOK_FACETS, { error: `must be one of ${BOOK_FACETS.join(', ')}` }),
  /** A letter A–Z, or '#' for what starts otherwise; empty for the first letter that has values. */
  letter: z.string().regex(/^([A-Z#])?$/, 'must be a letter A–Z or #').default(''),
});
export const BrowseEntry = z.object({ name: z.string(), count: z.number().int().positive() });
export type BrowseEntry = z.infer<typeof BrowseEntry>;
export const BrowseReply = z.object({
  facet: z.enum(BOOK_FACETS),
  /** Every letter that begins a value, with how many values begin with it, A–Z then '#'. */
  letters: z.array(z.object({ letter: z.string(), values: z.number().int().positive() })),
  letter: z.string(),
  /** The values of `letter`, A–Z, each with its count of books. */
  entries: z.array(BrowseEntry),
});
export type BrowseReply = z.infer<typeof BrowseReply>;

/**
 * One account's book search settings (issue 37), kept on the server so that another browser starts
 * where the last left. Defaults are the specification's (fields 'title', 10 a page, every format,
 * no comment), for a first visit.
 */
export const BookSearchPreferences = z.strictObject({
  fields: z.array(z.enum(BOOK_SEARCH_FIELDS, { error: `must be among ${BOOK_SEARCH_FIELDS.join(', ')}` })).max(BOOK_SEARCH_FIELDS.length).default(['title']),
  size: z.number().int().min(1).max(MAX_BOOK_PAGE_SIZE).default(10),
  format: z.enum(['', ...BOOK_FORMATS]).default(''),
  comment: z.boolean().default(false),
  sort: z.enum(BOOK_SORTS).default('updated'),
  /** The results as cards in a list or as covers in a grid. */
  view: z.enum(['list', 'grid']).default('list'),
});
export type BookSearchPreferences = z.infer<typeof BookSearchPreferences>;

export const BookIdParams = z.strictObject({ id: z.string().min(1).max(64) });

/** `GET /api/books/{id}/cover`: the cover as Calibre keeps it, or a thumbnail for cards. */
export const CoverQuery = z.strictObject({
  size: z.enum(['thumb', 'full'], { error: 'must be thumb or full' }).default('full'),
});
export type CoverSize = z.infer<typeof CoverQuery>['size'];

/**
 * `GET /api/books/{id}/file/{format}`. Any format is asked for as it is: one the book has not on
 * disk is a 404 like any other file that is not there, whatever its characters.
 */
export const BookFileParams = z.strictObject({
  id: z.string().min(1).max(64),
  format: z.string().min(1).max(100),
});

/** `POST /api/books/index` reply: the counts and the first problems, by line (docs/behaviour/books.md). */
export const IndexUploadReply = z.object({
  total_count: z.number().int().nonnegative(),
  error_count: z.number().int().nonnegative(),
  errors: z.array(z.object({ line: z.number().int().nonnegative(), message: z.string() })),
});
export type IndexUploadReply = z.infer<typeof IndexUploadReply>;

/** The `name` field of the upload: update upserts by id, replace swaps the whole catalogue. */
export const IndexMode = z.enum(['update', 'replace'], { error: 'name must be update or replace' });

/**
 * A catalogue load as it goes (issue 18): an index upload or a library-folder load. `receiving`
 * while an upload's bytes arrive; `reading` while the importer reads records and writes books;
 * `writing` while it commits. The counts are the importer's own, never a timer's.
 */
export const CatalogueLoadPhase = z.enum(['receiving', 'reading', 'writing', 'done', 'failed', 'cancelled']);
export type CatalogueLoadPhase = z.infer<typeof CatalogueLoadPhase>;

export const CatalogueLoad = z.object({
  id: z.string(),
  kind: z.enum(['upload', 'library']),
  mode: IndexMode,
  phase: CatalogueLoadPhase,
  /** Records read so far, books among them or not. */
  read: z.number().int().nonnegative(),
  /** Books written so far (in the load's transaction: none is visible before it commits). */
  written: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  /** Bytes of the upload received so far (0 for a library-folder load). */
  bytes: z.number().int().nonnegative(),
  /** The upload's size as its request announced it, or null. */
  total_bytes: z.number().int().nonnegative().nullable(),
  /** About how many records there are in all, once that can be told; null before. */
  estimated_total: z.number().int().nonnegative().nullable(),
  started_at: z.string(),
  /** Set once the load is done, failed or cancelled. */
  finished_at: z.string().nullable(),
  /** Why it failed, or what a cancel left: for people. */
  message: z.string().nullable(),
});
export type CatalogueLoad = z.infer<typeof CatalogueLoad>;

/** The running load, else the last one since the server started; null when there has been none. */
export const CurrentCatalogueLoad = z.object({ load: CatalogueLoad.nullable() });
export type CurrentCatalogueLoad = z.infer<typeof CurrentCatalogueLoad>;

export const CatalogueLoadParams = z.object({ id: z.string().max(64) });

/** The event of `GET /api/books/index/events`: the load's progress, sent at most every quarter second and at each phase. */
export const CATALOGUE_LOAD_EVENT = 'catalogue-load';

/**
 * An upload's 409: either a second load while one runs, with the running one's progress (null when
 * it runs on another instance that has not told it yet), or the upload's own load cancelled, without it.
 */
export const CatalogueLoadBusy = ErrorReply.extend({ load: CatalogueLoad.nullable().optional() });

/**
 * A search refused (503, with `Retry-After`) while the server prepares its first search index:
 * how far it is, in percent (docs/book-search.md).
 */
export const SearchPreparing = ErrorReply.extend({ progress: z.number().int().min(0).max(100) });
export type SearchPreparing = z.infer<typeof SearchPreparing>;
