import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { type Bookmark, type BookmarkDraft, type BookmarkQuerySpec, NO_MORE_RESULTS } from '../../../../contract/bookmarks.ts';
import { ApiError, errorMessage } from '../../api/api-error.ts';
import type { HttpClient } from '../../api/http-client.ts';
import {
  bulkEdit,
  createBookmark,
  deleteBookmark,
  fetchBookmark,
  fetchBookmarkPage,
  indexBookmark,
  isIndexed,
  type ListParams,
  searchBookmarks,
  updateBookmark,
} from './bookmarks.api.ts';
import { querySpec } from './bookmark-query.ts';
import {
  bookmarkForgotten,
  bookmarkLoaded,
  type BookmarksRootState,
  bookmarksRemoved,
  errorReported,
  pageAdded,
  pageLoaded,
} from './bookmarks.slice.ts';

export type BookmarksThunk<T = void> = ThunkAction<Promise<T>, BookmarksRootState, unknown, UnknownAction>;
export type ListFilter = Omit<ListParams, 'pageSize'>;

/** Spec §9: 10 when the store has no page size. */
const pageSizeOf = (state: BookmarksRootState) => state.bookmark.pageSize || 10;

/** What a list's bookmarks answer: its filter and page size (a new size loads the list again). */
export const listKey = (filter: ListFilter, pageSize: number) =>
  `list ${JSON.stringify([filter.tag ?? null, filter.start_date ?? null, filter.end_date ?? null, pageSize])}`;

/** What a search's bookmarks answer: its spec (a new page size applies from the next search). */
export const searchKey = (spec: BookmarkQuerySpec) => `search ${JSON.stringify(spec)}`;

/** The first page replaces the list; with the stored cursor, the next page is appended (spec §4). */
export function loadBookmarks(client: HttpClient, filter: ListFilter, more = false, signal?: AbortSignal): BookmarksThunk {
  return async (dispatch, getState) => {
    const cursor = getState().bookmark.pageCursor;
    if (more && (cursor === null || cursor === NO_MORE_RESULTS)) return;
    const pageSize = pageSizeOf(getState());
    try {
      const page = await fetchBookmarkPage(client, { ...filter, pageSize }, more ? (cursor ?? undefined) : undefined, signal);
      if (signal?.aborted) return;
      const loaded = {
        bookmarks: page.items,
        pageCursor: page.cursor,
        host_groups: page.host_groups,
        tag_groups: page.tag_groups,
        total: page.total,
        shown: listKey(filter, pageSize),
      };
      dispatch(more ? pageAdded(loaded) : pageLoaded(loaded));
    } catch (error) {
      if (!signal?.aborted) dispatch(errorReported(errorMessage(error)));
    }
  };
}

/**
 * The list page's opening: its first page, unless the page is shown again by Back (`returning`)
 * and the bookmarks loaded are still this list's, which then stay as they were.
 */
export function openList(client: HttpClient, filter: ListFilter, returning: boolean, signal?: AbortSignal): BookmarksThunk {
  return async (dispatch, getState) => {
    if (returning && getState().bookmark.shown === listKey(filter, pageSizeOf(getState()))) return;
    await dispatch(loadBookmarks(client, filter, false, signal));
  };
}

/**
 * The search page shown again by Back keeps its form and results; when the bookmarks loaded
 * meanwhile are another list's, it asks for its search's first page again.
 */
export function resumeSearch(client: HttpClient, signal?: AbortSignal): BookmarksThunk {
  return async (dispatch, getState) => {
    const { query, shown } = getState().bookmark;
    const spec = query.searched === null ? null : querySpec(query.searched);
    if (spec === null || typeof spec === 'string' || shown === searchKey(spec)) return;
    await dispatch(searchPage(client, spec, undefined, signal));
  };
}

/**
 * Spec §4 Bookmark search paging: without `from` the results replace the list, with it they are
 * appended. The cursor is the count loaded, while it is below the total.
 */
export function searchPage(client: HttpClient, spec: BookmarkQuerySpec, from?: number, signal?: AbortSignal): BookmarksThunk {
  return async (dispatch, getState) => {
    try {
      const result = await searchBookmarks(client, spec, { size: pageSizeOf(getState()), ...(from === undefined ? {} : { from }) }, signal);
      if (signal?.aborted) return;
      const loaded = (from ?? 0) + result.bookmarks.length;
      const page = {
        bookmarks: result.bookmarks,
        pageCursor: loaded < result.total_count && result.bookmarks.length > 0 ? String(loaded) : null,
        host_groups: result.host_groups,
        tag_groups: result.tag_groups,
        total: result.total,
        shown: searchKey(spec),
      };
      dispatch(from === undefined ? pageLoaded(page) : pageAdded(page));
    } catch (error) {
      if (!signal?.aborted) dispatch(errorReported(errorMessage(error)));
    }
  };
}

/**
 * Opening a bookmark loads it and checks its index entry (spec §4). Whether it is missing: an
 * unknown id (or another user's) is a 404, which the page tells in its own warning ('No bookmark
 * found with id {id}'), so it is not the operation error too; any other failure is.
 */
export function openBookmark(client: HttpClient, id: number, signal?: AbortSignal): BookmarksThunk<boolean> {
  return async (dispatch) => {
    try {
      const [bookmark, indexed] = await Promise.all([fetchBookmark(client, id, signal), isIndexed(client, id, signal)]);
      if (!signal?.aborted) dispatch(bookmarkLoaded({ ...bookmark, indexed }));
      return false;
    } catch (error) {
      if (signal?.aborted) return false;
      dispatch(bookmarkForgotten());
      if (error instanceof ApiError && error.status === 404) return true;
      dispatch(errorReported(errorMessage(error)));
      return false;
    }
  };
}

/** Indexes after an update or a create, where a failure is only logged (spec §8). */
async function reindex(client: HttpClient, bookmark: Bookmark, dispatch: (action: UnknownAction) => unknown) {
  try {
    dispatch(bookmarkLoaded({ ...(await indexBookmark(client, bookmark)), indexed: true }));
  } catch (error) {
    console.error(`Indexing bookmark ${bookmark.id} failed`, error);
  }
}

/** Saves the whole bookmark with one field changed, then indexes it again (spec §4). Whether it saved. */
export function saveBookmark(client: HttpClient, bookmark: Bookmark): BookmarksThunk<boolean> {
  return async (dispatch) => {
    try {
      const updated = await updateBookmark(client, bookmark);
      dispatch(bookmarkLoaded({ ...updated, indexed: bookmark.indexed ?? false }));
      await reindex(client, updated, dispatch);
      return true;
    } catch (error) {
      dispatch(errorReported(errorMessage(error)));
      return false;
    }
  };
}

/** The Index button: creates the entry and marks the bookmark indexed. */
export function indexCurrent(client: HttpClient, bookmark: Bookmark): BookmarksThunk {
  return async (dispatch) => {
    try {
      dispatch(bookmarkLoaded({ ...(await indexBookmark(client, bookmark)), indexed: true }));
    } catch (error) {
      dispatch(errorReported(errorMessage(error)));
    }
  };
}

/** Create, then index (spec §4); the new bookmark's id, or null when the create failed. */
export function createAndIndex(client: HttpClient, draft: BookmarkDraft): BookmarksThunk<number | null> {
  return async (dispatch) => {
    try {
      const created = await createBookmark(client, draft);
      dispatch(bookmarkLoaded({ ...created, indexed: false }));
      await reindex(client, created, dispatch);
      return created.id;
    } catch (error) {
      dispatch(errorReported(errorMessage(error)));
      return null;
    }
  };
}

/** Deletes bookmarks (one from its page, or those selected on the list), which leave the list; whether it worked. */
export function deleteBookmarks(client: HttpClient, ids: number[]): BookmarksThunk<boolean> {
  return async (dispatch) => {
    try {
      if (ids.length === 1) await deleteBookmark(client, ids[0]!);
      else await bulkEdit(client, { action: 'delete', ids });
      dispatch(bookmarksRemoved(ids));
      return true;
    } catch (error) {
      dispatch(errorReported(errorMessage(error)));
      return false;
    }
  };
}

/** Adds a tag to each of the selected bookmarks (the server indexes them again); whether it worked. */
export function tagBookmarks(client: HttpClient, ids: number[], tag: string): BookmarksThunk<boolean> {
  return async (dispatch) => {
    try {
      await bulkEdit(client, { action: 'add_tag', ids, tag });
      return true;
    } catch (error) {
      dispatch(errorReported(errorMessage(error)));
      return false;
    }
  };
}
