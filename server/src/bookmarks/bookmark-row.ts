import type { Bookmark, BookmarkInput, BookmarkState } from '../../../contract/bookmarks.ts';
import type { BookmarksTable } from '../storage/schema.ts';
import { linkKey } from './link-key.ts';

/** A stored bookmark as the store reads it, from either table. */
export type BookmarkRow = Omit<BookmarksTable, 'id' | 'owner_id' | 'link_key' | 'folder_root' | 'folder' | 'keyword' | 'read_state'> & {
  id: number;
  read_state: BookmarkState;
};

export const BOOKMARK_COLUMNS = ['title', 'link', 'host', 'tags', 'note', 'create_date', 'update_date', 'read_state'] as const;

/** The host a bookmark is grouped under: the link's host name, lower case, without a leading "www.". */
export function hostOf(link: string): string {
  return new URL(link).hostname.replace(/^www\./, '');
}

/** The stored fields of a valid bookmark; times are the caller's. */
export function rowFields(input: BookmarkInput) {
  return {
    title: input.title,
    link: input.link,
    link_key: linkKey(input.link),
    host: hostOf(input.link),
    tags: JSON.stringify(input.tags),
    note: input.note ?? null,
  };
}

export function fromRow(row: BookmarkRow): Bookmark {
  return {
    id: Number(row.id),
    title: row.title,
    link: row.link,
    tags: JSON.parse(row.tags) as string[],
    ...(row.note === null ? {} : { note: row.note }),
    create_date: new Date(Number(row.create_date)).toISOString(),
    update_date: new Date(Number(row.update_date)).toISOString(),
    state: row.read_state,
  };
}
