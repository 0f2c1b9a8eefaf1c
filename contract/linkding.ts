import { z } from 'zod';
import { BOOKMARK_FIELD_VALUES, BOOKMARK_LIMITS } from './bookmarks.ts';

/**
 * linkding's REST API as its browser extension and apps call it, served under `/linkding`
 * (docs/behaviour/bookmarks.md, "linkding's clients"). The shapes are linkding's own, read from
 * sissbruecker/linkding `docs/src/content/docs/api.md` and `bookmarks/api/serializers.py`
 * (BookmarkSerializer, TagSerializer, UserProfileSerializer): their names and meanings, not ours.
 */

/** Where the API is served: the base address a user gives linkding's clients is `https://host/linkding`. */
export const LINKDING_BASE_PATH = '/linkding';
/** linkding's page size when `limit` is not given. */
export const LINKDING_DEFAULT_LIMIT = 100;
/** The most bookmarks one page gives; linkding's extension asks for at most 100. */
export const LINKDING_MAX_BOOKMARKS = 1000;
/** The most tags one page gives: linkding's extension asks for 5000 to fill its tag completion. */
export const LINKDING_MAX_TAGS = 5000;

/** A bookmark as linkding replies it. `description` is the bookmark's note; `notes` is always empty (decision 0042). */
export const LinkdingBookmark = z.object({
  id: z.number().int().positive(),
  url: z.string(),
  title: z.string(),
  description: z.string(),
  notes: z.string(),
  web_archive_snapshot_url: z.string(),
  favicon_url: z.string().nullable(),
  preview_image_url: z.string().nullable(),
  is_archived: z.boolean(),
  unread: z.boolean(),
  shared: z.boolean(),
  tag_names: z.array(z.string()),
  date_added: z.string(),
  date_modified: z.string(),
  website_title: z.string().nullable(),
  website_description: z.string().nullable(),
});
export type LinkdingBookmark = z.infer<typeof LinkdingBookmark>;

const page = <T extends z.ZodType>(item: T) =>
  z.object({ count: z.number().int().nonnegative(), next: z.string().nullable(), previous: z.string().nullable(), results: z.array(item) });

export const LinkdingBookmarkPage = page(LinkdingBookmark);
export type LinkdingBookmarkPage = z.infer<typeof LinkdingBookmarkPage>;

const text = (limit: number) => z.string({ error: 'Not a valid string.' }).max(limit, `Ensure this field has no more than ${limit} characters.`);
const flag = z.boolean({ error: 'Must be a valid boolean.' });

/**
 * What linkding's clients send to create or change a bookmark (its extension: url, title,
 * description, notes, tag_names, unread, shared). Unknown fields are dropped, as linkding's
 * serializer drops them; the dates and `shared` are accepted and not kept.
 */
const bookmarkFields = {
  url: BOOKMARK_FIELD_VALUES.link,
  title: text(BOOKMARK_LIMITS.title).optional(),
  description: text(BOOKMARK_LIMITS.note).optional(),
  notes: text(BOOKMARK_LIMITS.note).nullish(),
  tag_names: z
    .array(text(BOOKMARK_LIMITS.tag), { error: 'Expected a list of items.' })
    .max(BOOKMARK_LIMITS.tags, `Ensure this field has no more than ${BOOKMARK_LIMITS.tags} elements.`)
    .optional(),
  is_archived: flag.optional(),
  unread: flag.optional(),
  shared: flag.optional(),
  date_added: z.string().optional(),
  date_modified: z.string().optional(),
};
/** `POST /api/bookmarks/` and `PUT /api/bookmarks/<id>/`: `url` is required, any other field left out stays as it is. */
export const LinkdingBookmarkInput = z.object(bookmarkFields);
export type LinkdingBookmarkInput = z.infer<typeof LinkdingBookmarkInput>;
/** `PATCH /api/bookmarks/<id>/`: only the fields to change. */
export const LinkdingBookmarkPatch = z.object({ ...bookmarkFields, url: bookmarkFields.url.optional() });
export type LinkdingBookmarkPatch = z.infer<typeof LinkdingBookmarkPatch>;

const offsetPage = (max: number) => ({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(LINKDING_DEFAULT_LIMIT)
    // linkding's pagination caps a large limit rather than refusing it.
    .transform((limit) => Math.min(limit, max)),
  offset: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0 or more').max(1_000_000).default(0),
});

/**
 * `GET /api/bookmarks/` and `/archived/`: `q` is linkding's search phrase (words, `#tag`,
 * `!unread`). Other parameters linkding's clients may send (`modified_since`, `bundle`) are ignored.
 */
export const LinkdingListQuery = z.object({ q: z.string().max(2000).optional(), ...offsetPage(LINKDING_MAX_BOOKMARKS) });
export type LinkdingListQuery = z.infer<typeof LinkdingListQuery>;
export const LinkdingTagListQuery = z.object(offsetPage(LINKDING_MAX_TAGS));

/** `POST /api/bookmarks/?disable_scraping&disable_html_snapshot`: both flags are taken and change nothing here. */
export const LinkdingCreateQuery = z.object({ disable_scraping: z.string().optional(), disable_html_snapshot: z.string().optional() });

export const LinkdingIdParams = z.strictObject({
  id: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be positive').max(Number.MAX_SAFE_INTEGER),
});

/** `GET /api/bookmarks/check/?url=`. */
export const LinkdingCheckQuery = z.object({ url: z.string({ error: 'url is required' }).trim().min(1, 'url is required').max(BOOKMARK_LIMITS.link) });
/** The page's title and description as the server reads them (null when it cannot), and linkding's `preview_image`, never read here. */
export const LinkdingMetadata = z.object({
  url: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  preview_image: z.string().nullable(),
});
/** The user's bookmark of the link, or null; the page's metadata; and no auto tags, which Organiser has not. */
export const LinkdingCheck = z.object({ bookmark: LinkdingBookmark.nullable(), metadata: LinkdingMetadata, auto_tags: z.array(z.string()) });
export type LinkdingCheck = z.infer<typeof LinkdingCheck>;

/** A tag: `id` is a number derived from its name in any case, the same on every call (decision 0042). */
export const LinkdingTag = z.object({ id: z.number().int().positive(), name: z.string(), date_added: z.string() });
export type LinkdingTag = z.infer<typeof LinkdingTag>;
export const LinkdingTagPage = page(LinkdingTag);
export type LinkdingTagPage = z.infer<typeof LinkdingTagPage>;
export const LinkdingTagInput = z.object({
  name: z
    .string({ error: 'This field is required.' })
    .trim()
    .min(1, 'This field may not be blank.')
    .max(BOOKMARK_LIMITS.tag, `Ensure this field has no more than ${BOOKMARK_LIMITS.tag} characters.`),
});

/** `GET /api/user/profile/`: linkding's settings its extension reads; sharing is off, so it hides "Share". */
export const LinkdingProfile = z.object({
  theme: z.string(),
  bookmark_date_display: z.string(),
  bookmark_link_target: z.string(),
  web_archive_integration: z.string(),
  tag_search: z.string(),
  enable_sharing: z.boolean(),
  enable_public_sharing: z.boolean(),
  enable_favicons: z.boolean(),
  display_url: z.boolean(),
  permanent_notes: z.boolean(),
  search_preferences: z.record(z.string(), z.string()),
  version: z.string(),
});
export type LinkdingProfile = z.infer<typeof LinkdingProfile>;

/** linkding's refusals: `{detail}` for 401, 403 and 404, and each bad field with its messages for a 400. */
export const LinkdingDetail = z.object({ detail: z.string() });
export const LinkdingFieldErrors = z.record(z.string(), z.array(z.string()));
/** A 400: each bad field, or `{detail}` for a body that is not JSON. */
export const LinkdingBadRequest = z.union([LinkdingDetail, LinkdingFieldErrors]);
