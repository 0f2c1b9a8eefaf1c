import { BOOKMARK_INDEXED_FIELDS, BOOKMARK_LIMITS, type Bookmark, BookmarkInput, type BookmarkState } from '../../../../contract/bookmarks.ts';
import type {
  LinkdingBookmark,
  LinkdingBookmarkInput,
  LinkdingBookmarkPatch,
  LinkdingCheck,
  LinkdingListQuery,
  LinkdingTag,
} from '../../../../contract/linkding.ts';
import { AppError, notFound } from '../../errors.ts';
import type { BookmarksService } from '../bookmarks.service.ts';
import { nextState, noteOf, parseLinkdingQuery, tagId, toLinkding } from './linkding-fields.ts';
import type { LinkPreviews } from '../preview/link-previews.ts';

/** A refusal of one field, which the linkding API's error handler replies as linkding does: `{"url": ["…"]}`. */
export class LinkdingFieldError extends AppError {
  readonly fields: Record<string, string[]>;

  constructor(fields: Record<string, string[]>) {
    super(400, Object.entries(fields).map(([field, messages]) => `${field}: ${messages.join(' ')}`).join('; '));
    this.fields = fields;
  }
}

/** Our fields' names in linkding's, for its field errors. */
const LINKDING_NAMES: Record<string, string> = { title: 'title', link: 'url', tags: 'tag_names', note: 'description' };

/**
 * What the bookmark will be after a linkding create or change, from the bookmark it was (none for
 * a new one), checked by the rules of the app's own form.
 */
function merged(current: Bookmark | undefined, given: LinkdingBookmarkPatch): { fields: BookmarkInput; state: BookmarkState } {
  const link = given.url ?? current?.link ?? '';
  // linkding lets a title be empty; a bookmark here has one, so the link stands in (decision 0042).
  const title = given.title?.trim() || (given.title === undefined ? current?.title : undefined) || link.slice(0, BOOKMARK_LIMITS.title);
  const described = given.description !== undefined || given.notes != null;
  const note = described ? noteOf(given.description, given.notes) : current?.note;
  const parsed = BookmarkInput.safeParse({ title, link, tags: given.tag_names ?? current?.tags ?? [], note });
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const name = LINKDING_NAMES[String(issue.path[0])] ?? 'non_field_errors';
      (fields[name] ??= []).push(issue.message);
    }
    throw new LinkdingFieldError(fields);
  }
  return { fields: parsed.data, state: nextState(current?.state, given) };
}

/** The filter of linkding's two lists, the bookmarks not archived and the archived ones, with its search phrase. */
type ListKind = 'active' | 'archived';

/**
 * linkding's REST API over the bookmarks service: the same rules, ownership and index, replied in
 * linkding's shapes. A bookmark saved through it is indexed at once, since linkding's clients
 * search what they save and have no "Index" button.
 */
export function createLinkdingBookmarks({ bookmarks, previews }: { bookmarks: BookmarksService; previews: LinkPreviews }) {
  async function indexed(ownerId: string, bookmark: Bookmark): Promise<LinkdingBookmark> {
    await bookmarks.indexBookmark(ownerId, { ...bookmark, note: bookmark.note });
    return toLinkding(bookmark);
  }

  /** Saves the fields and then the state, when it changes; a link another bookmark has is a field error, as linkding's. */
  async function save(ownerId: string, current: Bookmark, given: LinkdingBookmarkPatch): Promise<LinkdingBookmark> {
    const { fields, state } = merged(current, given);
    let saved: Bookmark;
    try {
      saved = await bookmarks.update(ownerId, current.id, { id: current.id, ...fields });
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 409) throw new LinkdingFieldError({ url: ['A bookmark with this URL already exists.'] });
      throw error;
    }
    if (state !== saved.state) saved = await bookmarks.setState(ownerId, current.id, state);
    return indexed(ownerId, saved);
  }

  return {
    async list(ownerId: string, kind: ListKind, query: LinkdingListQuery): Promise<{ count: number; results: LinkdingBookmark[] }> {
      const { words, tags, unreadOnly } = parseLinkdingQuery(query.q);
      const states: BookmarkState[] = kind === 'archived' ? ['archived'] : unreadOnly ? ['unread'] : ['unread', 'read'];
      const inStates = kind === 'archived' && unreadOnly ? [] : states;
      if (inStates.length === 0) return { count: 0, results: [] };
      if (words.length === 0) {
        const page = await bookmarks.pageOfStates(ownerId, { states: inStates, tags }, query.offset, query.limit);
        return { count: page.total, results: page.bookmarks.map(toLinkding) };
      }
      // Linkding's search looks in a bookmark's own fields; its apps know nothing of kept pages' text.
      const fields = [...BOOKMARK_INDEXED_FIELDS];
      const found = await bookmarks.search(ownerId, { key_words: words, tags, fields }, { from: query.offset, size: query.limit }, inStates);
      return { count: found.total, results: found.bookmarks.map(({ indexed: _, ...bookmark }) => toLinkding(bookmark)) };
    },

    async get(ownerId: string, id: number): Promise<LinkdingBookmark> {
      return toLinkding(await bookmarks.get(ownerId, id));
    },

    /** linkding's create: a link the user has already saved (compared as the lookup compares it) updates that bookmark instead. */
    async create(ownerId: string, given: LinkdingBookmarkInput): Promise<LinkdingBookmark> {
      const existing = await bookmarks.lookup(ownerId, given.url);
      if (existing) return save(ownerId, existing, given);
      const { fields, state } = merged(undefined, given);
      return indexed(ownerId, await bookmarks.create(ownerId, fields, state));
    },

    async update(ownerId: string, id: number, given: LinkdingBookmarkPatch): Promise<LinkdingBookmark> {
      return save(ownerId, await bookmarks.get(ownerId, id), given);
    },

    delete: (ownerId: string, id: number) => bookmarks.delete(ownerId, id),

    /** Unarchiving gives a read bookmark: the state before archiving is not kept. */
    async archive(ownerId: string, id: number, archived: boolean): Promise<void> {
      const current = await bookmarks.get(ownerId, id);
      if ((current.state === 'archived') !== archived) await bookmarks.setState(ownerId, id, archived ? 'archived' : 'read');
    },

    /**
     * The user's bookmark of the link and the page's title and description, read by the guarded
     * fetcher of the create form; a page it cannot read (or a user asking too fast) gives none.
     */
    async check(ownerId: string, url: string): Promise<LinkdingCheck> {
      const existing = await bookmarks.lookup(ownerId, url);
      const page = await previews.preview(ownerId, url).catch((error: unknown) => {
        if (error instanceof AppError && error.statusCode < 500) return null;
        throw error;
      });
      return {
        bookmark: existing && toLinkding(existing),
        metadata: { url, title: page?.title || null, description: page?.note || null, preview_image: null },
        auto_tags: [],
      };
    },

    /** The user's tags by name, in any case; each dated by its first bookmark. */
    async tags(ownerId: string): Promise<LinkdingTag[]> {
      const tags = await bookmarks.tagsFirstGiven(ownerId);
      return tags
        .map(({ tag, first }) => ({ id: tagId(tag), name: tag, date_added: new Date(first).toISOString() }))
        .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.name.localeCompare(b.name));
    },

    async tag(ownerId: string, id: number): Promise<LinkdingTag> {
      const found = (await this.tags(ownerId)).find((tag) => tag.id === id);
      if (!found) throw notFound('Tag');
      return found;
    },

    /**
     * linkding's get-or-create: the user's tag of that name in any case, else the name as given. A
     * tag lives on its bookmarks here, so a new one is kept once a bookmark carries it.
     */
    async createTag(ownerId: string, name: string, now: number): Promise<LinkdingTag> {
      const found = (await this.tags(ownerId)).find((tag) => tag.name.toLowerCase() === name.toLowerCase());
      return found ?? { id: tagId(name), name, date_added: new Date(now).toISOString() };
    },
  };
}
export type LinkdingBookmarks = ReturnType<typeof createLinkdingBookmarks>;
