import { createSlice, type PayloadAction, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { useDispatch } from 'react-redux';
import { z } from 'zod';
import { Bookmark, BookmarkGroup } from '../../../../contract/bookmarks.ts';
import { screenChanged } from '../../lib/screen-changed.ts';
import { EMPTY_QUERY, QueryForm } from './bookmark-query.ts';

/** The search page's form, and the form of the search whose results were last asked for. */
export const QueryState = z.object({ form: QueryForm, searched: QueryForm.nullable() });
export type QueryState = z.infer<typeof QueryState>;
const NO_QUERY: QueryState = { form: EMPTY_QUERY, searched: null };

/** The bookmark state (docs/behaviour/bookmarks.md). */
export const BookmarkState = z.object({
  pageSize: z.number().int().positive(),
  bookmarks: z.array(Bookmark),
  curBookmark: Bookmark.nullable(),
  /**
   * The list's next-page cursor (NO_MORE_RESULTS at the end), or for search results the count
   * loaded so far; null when there is nothing more to ask for.
   */
  pageCursor: z.string().nullable(),
  host_groups: z.array(BookmarkGroup),
  tag_groups: z.array(BookmarkGroup),
  /** How many bookmarks the last list or search matched in all (its reply's `total`); null before one. */
  total: z.number().int().nonnegative().nullable().default(null),
  operationError: z.string().nullable(),
  /**
   * What the loaded bookmarks answer (`listKey` or `searchKey`), so that Back to the page that
   * loaded them shows them as they were, more pages and all, instead of loading them again.
   */
  shown: z.string().nullable().default(null),
  /** By bookmark id, where the loaded search results were found in their kept pages' text (the reply's `snippets`). */
  snippets: z.record(z.string(), z.string()).default({}),
  query: QueryState.default(NO_QUERY),
});
export type BookmarkState = z.infer<typeof BookmarkState>;

const initialState: BookmarkState = {
  pageSize: 5,
  bookmarks: [],
  curBookmark: null,
  pageCursor: null,
  host_groups: [],
  tag_groups: [],
  total: null,
  operationError: null,
  shown: null,
  snippets: {},
  query: NO_QUERY,
};

export type BookmarkPageLoaded = Pick<BookmarkState, 'bookmarks' | 'pageCursor' | 'host_groups' | 'tag_groups' | 'total' | 'shown'> & {
  snippets?: Record<string, string> | undefined;
};

function clearResults(state: BookmarkState) {
  state.bookmarks = [];
  state.pageCursor = null;
  state.host_groups = [];
  state.tag_groups = [];
  state.total = null;
  state.shown = null;
  state.snippets = {};
}

/** Bookmarks (docs/behaviour/bookmarks.md); every successful action clears the operation error, and so does another screen. */
export const bookmarkSlice = createSlice({
  name: 'bookmark',
  initialState,
  reducers: {
    /** Get page: replaces the list. */
    pageLoaded(state, action: PayloadAction<BookmarkPageLoaded>) {
      Object.assign(state, action.payload);
      state.snippets = action.payload.snippets ?? {};
      state.operationError = null;
    },
    /** Add page: appends the next page. */
    pageAdded(state, action: PayloadAction<BookmarkPageLoaded>) {
      const { bookmarks, snippets = {}, ...rest } = action.payload;
      Object.assign(state, rest);
      Object.assign(state.snippets, snippets);
      state.bookmarks.push(...bookmarks);
      state.operationError = null;
    },
    /** Get one, create, update and index: the current bookmark, and its copy in the list. */
    bookmarkLoaded(state, action: PayloadAction<Bookmark>) {
      state.curBookmark = action.payload;
      const at = state.bookmarks.findIndex((bookmark) => bookmark.id === action.payload.id);
      if (at >= 0) state.bookmarks[at] = action.payload;
      state.operationError = null;
    },
    /** Bookmarks deleted on the server: gone from the list and its total. */
    bookmarksRemoved(state, action: PayloadAction<number[]>) {
      const removed = new Set(action.payload);
      const before = state.bookmarks.length;
      state.bookmarks = state.bookmarks.filter((bookmark) => !removed.has(bookmark.id));
      if (state.total !== null) state.total = Math.max(0, state.total - (before - state.bookmarks.length));
      if (state.curBookmark !== null && removed.has(state.curBookmark.id)) state.curBookmark = null;
      state.operationError = null;
    },
    /** A bookmark's read-later state changed: its copies follow, and it leaves a list of another state (`leaves`). */
    bookmarkStateChanged(state, action: PayloadAction<{ bookmark: Bookmark; leaves: boolean }>) {
      const { bookmark, leaves } = action.payload;
      const at = state.bookmarks.findIndex((one) => one.id === bookmark.id);
      if (at >= 0 && leaves) {
        state.bookmarks.splice(at, 1);
        if (state.total !== null) state.total = Math.max(0, state.total - 1);
      } else if (at >= 0) state.bookmarks[at] = { ...state.bookmarks[at], ...bookmark };
      if (state.curBookmark?.id === bookmark.id) state.curBookmark = { ...state.curBookmark, ...bookmark };
      state.operationError = null;
    },
    /** The bookmark shown is no longer the one asked for (not found, or another user's). */
    bookmarkForgotten(state) {
      state.curBookmark = null;
    },
    pageSizeSet(state, action: PayloadAction<number>) {
      state.pageSize = action.payload;
    },
    /** Clear: the list, its cursor and the groups. */
    cleared: clearResults,
    /** The search page opened afresh: the list is cleared on entering, and the form too. */
    searchEntered(state) {
      clearResults(state);
      state.query = NO_QUERY;
    },
    queryFormChanged(state, action: PayloadAction<QueryForm>) {
      state.query.form = action.payload;
    },
    /** A search asked for: its form is kept for Get More and for a return to the page. */
    querySearched(state, action: PayloadAction<QueryForm>) {
      state.query.searched = action.payload;
    },
    /** Prefixed with the local time of day in square brackets (docs/behaviour/bookmarks.md). */
    errorReported: {
      reducer(state, action: PayloadAction<string>) {
        state.operationError = action.payload;
      },
      prepare: (message: string, at: Date = new Date()) => ({ payload: `[${at.toLocaleTimeString()}] ${message}` }),
    },
  },
  extraReducers: (builder) => {
    builder.addCase(screenChanged, (state) => {
      state.operationError = null;
    });
  },
});

export const {
  pageLoaded,
  pageAdded,
  bookmarkLoaded,
  bookmarksRemoved,
  bookmarkStateChanged,
  bookmarkForgotten,
  pageSizeSet,
  cleared,
  searchEntered,
  queryFormChanged,
  querySearched,
  errorReported,
} = bookmarkSlice.actions;

/** The part of the root state the bookmark screens read. */
export interface BookmarksRootState {
  bookmark: BookmarkState;
}
export type BookmarksDispatch = ThunkDispatch<BookmarksRootState, unknown, UnknownAction>;
export const useBookmarksDispatch = useDispatch.withTypes<BookmarksDispatch>();
export const selectBookmarks = (state: BookmarksRootState): BookmarkState => state.bookmark;
