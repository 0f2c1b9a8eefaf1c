import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { type Bookmark, type BookmarkDraft, type BookmarkQuerySpec, type BookmarkState, NO_MORE_RESULTS } from '../../../../contract/bookmarks.ts';
import { type ApiDispatch, ASKED_FOR_A_SLICE, failureOf, runChange, runLoad } from '../../api/api.ts';
import { bookmarksApi, type ListParams } from './bookmarks.api.ts';
import { querySpec } from './bookmark-query.ts';
import {
  bookmarkForgotten,
  bookmarkLoaded,
  type BookmarksRootState,
  bookmarksRemoved,
  bookmarkStateChanged,
  errorReported,
  pageAdded,
  pageLoaded,
} from './bookmarks.slice.ts';

export type BookmarksThunk<T = void> = ThunkAction<Promise<T>, BookmarksRootState, unknown, UnknownAction>;
export type ListFilter = Omit<ListParams, 'pageSize'>;

const { endpoints } = bookmarksApi;

/** 10 when the store has no page size (docs/behaviour/bookmarks.md). */
const pageSizeOf = (state: BookmarksRootState) => state.bookmark.pageSize || 10;

/** What a list's bookmarks answer: its filter and page size (a new size loads the list again). */
export const listKey = (filter: ListFilter, pageSize: number) =>
  `list ${JSON.stringify([filter.tag ?? null, filter.start_date ?? null, filter.end_date ?? null, filter.state ?? null, pageSize])}`;

/** What a search's bookmarks answer: its spec (a new page size applies from the next search). */
export const searchKey = (spec: BookmarkQuerySpec) => `search ${JSON.stringify(spec)}`;

/** The first page replaces the list; with the stored cursor, the next page is appended (docs/behaviour/bookmarks.md). */
export function loadBookmarks(calls: ApiDispatch, filter: ListFilter, more = false, signal?: AbortSignal): BookmarksThunk {
  return (dispatch, getState) =>
    runLoad(calls, signal, undefined, async ({ call }) => {
      const cursor = getState().bookmark.pageCursor;
      if (more && (cursor === null || cursor === NO_MORE_RESULTS)) return;
      const pageSize = pageSizeOf(getState());
      try {
        const page = await call(endpoints.bookmarkPage.initiate({ params: { ...filter, pageSize }, cursor: more ? cursor : null }, ASKED_FOR_A_SLICE));
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
        dispatch(errorReported(failureOf(error).message));
      }
    });
}

/**
 * The list page's opening: its first page, unless the page is shown again by Back (`returning`)
 * and the bookmarks loaded are still this list's, which then stay as they were.
 */
export function openList(calls: ApiDispatch, filter: ListFilter, returning: boolean, signal?: AbortSignal): BookmarksThunk {
  return async (dispatch, getState) => {
    if (returning && getState().bookmark.shown === listKey(filter, pageSizeOf(getState()))) return;
    await dispatch(loadBookmarks(calls, filter, false, signal));
  };
}

/**
 * The search page shown again by Back keeps its form and results; when the bookmarks loaded
 * meanwhile are another list's, it asks for its search's first page again.
 */
export function resumeSearch(calls: ApiDispatch, signal?: AbortSignal): BookmarksThunk {
  return async (dispatch, getState) => {
    const { query, shown } = getState().bookmark;
    const spec = query.searched === null ? null : querySpec(query.searched);
    if (spec === null || typeof spec === 'string' || shown === searchKey(spec)) return;
    await dispatch(searchPage(calls, spec, undefined, signal));
  };
}

/**
 * Bookmark search paging (docs/behaviour/bookmarks.md): without `from` the results replace the list, with it they are
 * appended. The cursor is the count loaded, while it is below the total.
 */
export function searchPage(calls: ApiDispatch, spec: BookmarkQuerySpec, from?: number, signal?: AbortSignal): BookmarksThunk {
  return (dispatch, getState) =>
    runLoad(calls, signal, undefined, async ({ call }) => {
      try {
        const result = await call(endpoints.searchBookmarks.initiate({ spec, from, size: pageSizeOf(getState()) }, ASKED_FOR_A_SLICE));
        const loaded = (from ?? 0) + result.bookmarks.length;
        const page = {
          bookmarks: result.bookmarks,
          pageCursor: loaded < result.total_count && result.bookmarks.length > 0 ? String(loaded) : null,
          host_groups: result.host_groups,
          tag_groups: result.tag_groups,
          total: result.total,
          shown: searchKey(spec),
          snippets: result.snippets,
        };
        dispatch(from === undefined ? pageLoaded(page) : pageAdded(page));
      } catch (error) {
        dispatch(errorReported(failureOf(error).message));
      }
    });
}

/**
 * Opening a bookmark loads it and checks its index entry (docs/behaviour/bookmarks.md). Whether it is missing: an
 * unknown id (or another user's) is a 404, which the page tells in its own warning ('No bookmark
 * found with id {id}'), so it is not the operation error too; any other failure is.
 */
export function openBookmark(calls: ApiDispatch, id: number, signal?: AbortSignal): BookmarksThunk<boolean> {
  return (dispatch) =>
    runLoad(calls, signal, false, async ({ call }) => {
      try {
        const [bookmark, indexed] = await Promise.all([
          call(endpoints.bookmark.initiate(id, ASKED_FOR_A_SLICE)),
          call(endpoints.isIndexed.initiate(id, ASKED_FOR_A_SLICE)),
        ]);
        dispatch(bookmarkLoaded({ ...bookmark, indexed }));
        return false;
      } catch (error) {
        dispatch(bookmarkForgotten());
        const failure = failureOf(error);
        if (failure.status === 404) return true;
        dispatch(errorReported(failure.message));
        return false;
      }
    });
}

/** Indexes after an update or a create, where a failure is only logged (docs/behaviour/bookmarks.md). */
async function reindex(calls: ApiDispatch, bookmark: Bookmark, dispatch: (action: UnknownAction) => unknown) {
  try {
    dispatch(bookmarkLoaded({ ...(await runChange(calls, endpoints.indexBookmark.initiate(bookmark))), indexed: true }));
  } catch (error) {
    console.error(`Indexing bookmark ${bookmark.id} failed`, error);
  }
}

/** Saves the whole bookmark with one field changed, then indexes it again (docs/behaviour/bookmarks.md). Whether it saved. */
export function saveBookmark(calls: ApiDispatch, bookmark: Bookmark): BookmarksThunk<boolean> {
  return async (dispatch) => {
    try {
      const updated = await runChange(calls, endpoints.updateBookmark.initiate(bookmark));
      dispatch(bookmarkLoaded({ ...updated, indexed: bookmark.indexed ?? false }));
      await reindex(calls, updated, dispatch);
      return true;
    } catch (error) {
      dispatch(errorReported(failureOf(error).message));
      return false;
    }
  };
}

/** The Index button: creates the entry and marks the bookmark indexed. */
export function indexCurrent(calls: ApiDispatch, bookmark: Bookmark): BookmarksThunk {
  return async (dispatch) => {
    try {
      dispatch(bookmarkLoaded({ ...(await runChange(calls, endpoints.indexBookmark.initiate(bookmark))), indexed: true }));
    } catch (error) {
      dispatch(errorReported(failureOf(error).message));
    }
  };
}

/** Create, then index (docs/behaviour/bookmarks.md); the new bookmark's id, or null when the create failed. */
export function createAndIndex(calls: ApiDispatch, draft: BookmarkDraft): BookmarksThunk<number | null> {
  return async (dispatch) => {
    try {
      const created = await runChange(calls, endpoints.createBookmark.initiate(draft));
      dispatch(bookmarkLoaded({ ...created, indexed: false }));
      await reindex(calls, created, dispatch);
      return created.id;
    } catch (error) {
      dispatch(errorReported(failureOf(error).message));
      return null;
    }
  };
}

/** Deletes bookmarks (one from its page, or those selected on the list), which leave the list; whether it worked. */
export function deleteBookmarks(calls: ApiDispatch, ids: number[]): BookmarksThunk<boolean> {
  return async (dispatch) => {
    try {
      if (ids.length === 1) await runChange(calls, endpoints.deleteBookmark.initiate(ids[0]!));
      else await runChange(calls, endpoints.bulkEdit.initiate({ action: 'delete', ids }));
      dispatch(bookmarksRemoved(ids));
      return true;
    } catch (error) {
      dispatch(errorReported(failureOf(error).message));
      return false;
    }
  };
}

/**
 * Read later: marks the bookmark read, unread or archived. On a list of one state (`listed`), a
 * bookmark put in another leaves it, as the server would no longer list it there. Whether it worked.
 */
export function markBookmark(calls: ApiDispatch, id: number, state: BookmarkState, listed?: BookmarkState): BookmarksThunk<boolean> {
  return async (dispatch) => {
    try {
      const bookmark = await runChange(calls, endpoints.setBookmarkState.initiate({ id, state }));
      dispatch(bookmarkStateChanged({ bookmark, leaves: listed !== undefined && listed !== state }));
      return true;
    } catch (error) {
      dispatch(errorReported(failureOf(error).message));
      return false;
    }
  };
}

/**
 * The reader view reached the end of the kept copy (issue 39): an unread bookmark becomes read; one
 * read or archived stays as it is. A failure is the page's operation error, as a mark's is.
 */
export function finishReading(calls: ApiDispatch, id: number, signal?: AbortSignal): BookmarksThunk<void> {
  return (dispatch) =>
    runLoad(calls, signal, undefined, async ({ call }) => {
      try {
        const bookmark = await call(endpoints.bookmark.initiate(id, ASKED_FOR_A_SLICE));
        if (bookmark.state === 'unread') await dispatch(markBookmark(calls, id, 'read'));
      } catch (error) {
        dispatch(errorReported(failureOf(error).message));
      }
    });
}

/** Adds a tag to each of the selected bookmarks (the server indexes them again); whether it worked. */
export function tagBookmarks(calls: ApiDispatch, ids: number[], tag: string): BookmarksThunk<boolean> {
  return async (dispatch) => {
    try {
      await runChange(calls, endpoints.bulkEdit.initiate({ action: 'add_tag', ids, tag }));
      return true;
    } catch (error) {
      dispatch(errorReported(failureOf(error).message));
      return false;
    }
  };
}
