import { createHash } from 'node:crypto';
import { type Bookmark, type BookmarkState, foldTag } from '../../../../contract/bookmarks.ts';
import type { LinkdingBookmark } from '../../../../contract/linkding.ts';

/**
 * How linkding's fields map onto a bookmark's (decision 0042): `description` is the note, the
 * text a page's description fills; `notes` has no field of its own and is added to the note;
 * `unread` and `is_archived` are the read-later state, archived winning.
 */

/** The Wayback Machine's address of the page near the day it was saved, as linkding writes it when it has no snapshot of its own. */
function waybackUrl(bookmark: Bookmark): string {
  const stamp = bookmark.create_date.replace(/[-:T]/g, '').slice(0, 14);
  return `https://web.archive.org/web/${stamp}/${bookmark.link}`;
}

export function toLinkding(bookmark: Bookmark): LinkdingBookmark {
  return {
    id: bookmark.id,
    url: bookmark.link,
    title: bookmark.title,
    description: bookmark.note ?? '',
    notes: '',
    web_archive_snapshot_url: waybackUrl(bookmark),
    favicon_url: null,
    preview_image_url: null,
    is_archived: bookmark.state === 'archived',
    unread: bookmark.state === 'unread',
    shared: false,
    tag_names: bookmark.tags,
    date_added: bookmark.create_date,
    date_modified: bookmark.update_date,
    website_title: null,
    website_description: null,
  };
}

/**
 * The state after a linkding call that may name `is_archived` and `unread`, from `current` (none
 * for a new bookmark, which is unread unless the call says otherwise).
 */
export function nextState(current: BookmarkState | undefined, given: { is_archived?: boolean | undefined; unread?: boolean | undefined }): BookmarkState {
  if (given.is_archived ?? current === 'archived') return 'archived';
  return (given.unread ?? (current === undefined || current === 'unread')) ? 'unread' : 'read';
}

/** The note from linkding's `description` and `notes`, each trimmed; the two kept one after the other when both are given. */
export function noteOf(description: string | undefined, notes: string | null | undefined): string | undefined {
  const parts = [description?.trim() ?? '', notes?.trim() ?? ''].filter((part) => part !== '');
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

/**
 * A tag's linkding id: the first 48 bits of the SHA-256 of its name in lower case, so that it is the
 * same on every call and for every spelling, with nothing stored. Two of one user's tags sharing
 * one is a chance of about n²/2⁴⁹ (one in 10⁷ at 5,000 tags).
 */
export function tagId(tag: string): number {
  return createHash('sha256').update(foldTag(tag)).digest().readUIntBE(0, 6) || 1;
}

/**
 * linkding's search phrase: `#tag` keeps bookmarks with that tag (with one of them, when several),
 * `!unread` unread ones; every other word must be found, as in the app's search.
 */
export function parseLinkdingQuery(q: string | undefined): { words: string[]; tags: string[]; unreadOnly: boolean } {
  const parsed = { words: [] as string[], tags: [] as string[], unreadOnly: false };
  for (const token of (q ?? '').split(/\s+/).filter(Boolean)) {
    if (token.startsWith('#') && token.length > 1) parsed.tags.push(token.slice(1));
    else if (token === '!unread') parsed.unreadOnly = true;
    else parsed.words.push(token);
  }
  return parsed;
}
