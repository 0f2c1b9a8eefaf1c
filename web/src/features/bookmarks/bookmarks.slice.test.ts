import { describe, expect, it } from 'vitest';
import { screenChanged } from '../../lib/screen-changed.ts';
import type { Bookmark } from '../../../../contract/bookmarks.ts';
import { EMPTY_QUERY } from './bookmark-query.ts';
import {
  bookmarkLoaded,
  bookmarkSlice,
  bookmarksRemoved,
  bookmarkStateChanged,
  BookmarkState,
  cleared,
  errorReported,
  pageAdded,
  pageLoaded,
  queryFormChanged,
  querySearched,
  searchEntered,
} from './bookmarks.slice.ts';

const reduce = bookmarkSlice.reducer;
const aBookmark = (id: number, fields: Partial<Bookmark> = {}): Bookmark => ({
  id,
  state: 'unread',
  title: `Bookmark ${id}`,
  link: `https://example.org/${id}`,
  tags: [],
  create_date: '2026-01-05T12:00:00.000Z',
  update_date: '2026-01-05T12:00:00.000Z',
  ...fields,
});
const page = (ids: number[], pageCursor: string | null) => ({
  bookmarks: ids.map((id) => aBookmark(id)),
  pageCursor,
  host_groups: [{ key: 'example.org', doc_count: ids.length }],
  tag_groups: [],
  total: 40,
  shown: 'list []',
});

describe('bookmark slice', () => {
  it('starts with the default page size of 5 and nothing loaded', () => {
    expect(reduce(undefined, { type: 'init' })).toMatchObject({ pageSize: 5, bookmarks: [], pageCursor: null, operationError: null });
  });

  it('replaces the list with a first page and appends the next, taking each page’s cursor and groups', () => {
    let state = reduce(undefined, pageLoaded(page([9, 8], 'c1')));
    state = reduce(state, pageAdded(page([7], 'NO_MORE_RESULTS')));
    expect(state.bookmarks.map((bookmark) => bookmark.id)).toEqual([9, 8, 7]);
    expect(state.pageCursor).toBe('NO_MORE_RESULTS');
    expect(state.host_groups).toEqual([{ key: 'example.org', doc_count: 1 }]);
    state = reduce(state, pageLoaded(page([3], null)));
    expect(state.bookmarks.map((bookmark) => bookmark.id)).toEqual([3]);
  });

  it('keeps the snippets of the search pages loaded, and none of a list', () => {
    let state = reduce(undefined, pageLoaded({ ...page([9, 8], '2'), snippets: { 9: 'the \u0002okapi\u0003' } }));
    state = reduce(state, pageAdded({ ...page([7], null), snippets: { 7: 'an \u0002okapi\u0003' } }));
    expect(state.snippets).toEqual({ 9: 'the \u0002okapi\u0003', 7: 'an \u0002okapi\u0003' });
    expect(reduce(state, pageLoaded(page([3], null))).snippets).toEqual({});
    expect(reduce(state, cleared()).snippets).toEqual({});
  });

  it('takes a bookmark marked read out of a list of another state, counting it out, and keeps it in any other list', () => {
    let state = reduce(undefined, pageLoaded(page([3, 2, 1], null)));
    state = reduce(state, bookmarkStateChanged({ bookmark: aBookmark(2, { state: 'read' }), leaves: true }));
    expect(state.bookmarks.map((bookmark) => bookmark.id)).toEqual([3, 1]);
    expect(state.total).toBe(39);
    state = reduce(state, bookmarkStateChanged({ bookmark: aBookmark(1, { state: 'archived' }), leaves: false }));
    expect(state.bookmarks.map((bookmark) => [bookmark.id, bookmark.state])).toEqual([
      [3, 'unread'],
      [1, 'archived'],
    ]);
    expect(state.total).toBe(39);
  });

  it('keeps the current bookmark and its copy in the list alike', () => {
    let state = reduce(undefined, pageLoaded(page([2, 1], null)));
    state = reduce(state, bookmarkLoaded(aBookmark(1, { title: 'Edited', indexed: true })));
    expect(state.curBookmark).toMatchObject({ id: 1, title: 'Edited', indexed: true });
    expect(state.bookmarks[1]).toMatchObject({ title: 'Edited' });
  });

  it('prefixes an error with the local time in square brackets, and a success clears it', () => {
    const at = new Date(2026, 0, 5, 9, 8, 7);
    let state = reduce(undefined, errorReported('Bookmark not found', at));
    expect(state.operationError).toBe(`[${at.toLocaleTimeString()}] Bookmark not found`);
    state = reduce(state, pageLoaded(page([1], null)));
    expect(state.operationError).toBeNull();
  });

  it('clears the list, the cursor and the groups', () => {
    const state = reduce(reduce(undefined, pageLoaded(page([1], 'c'))), cleared());
    expect(state).toMatchObject({ bookmarks: [], pageCursor: null, host_groups: [], tag_groups: [], total: null });
  });

  it('keeps the reply’s total, and takes deleted bookmarks off the list, its total and the current one', () => {
    let state = reduce(undefined, pageLoaded(page([3, 2, 1], 'c')));
    expect(state.total).toBe(40);
    state = reduce(state, bookmarkLoaded(aBookmark(2)));
    state = reduce(state, bookmarksRemoved([2, 1, 99]));
    expect(state.bookmarks.map((bookmark) => bookmark.id)).toEqual([3]);
    expect(state.total).toBe(38);
    expect(state.curBookmark).toBeNull();
  });

  it('keeps the search form and the search asked for, until the search page is opened afresh', () => {
    const form = { ...EMPTY_QUERY, keyWords: 'garden', hosts: ['example.org'] };
    let state = reduce(undefined, queryFormChanged(form));
    state = reduce(state, querySearched(form));
    state = reduce(state, pageLoaded(page([2, 1], 'c')));
    expect(state.query).toEqual({ form, searched: form });

    state = reduce(state, searchEntered());
    expect(state).toMatchObject({ bookmarks: [], pageCursor: null, total: null, shown: null, query: { form: EMPTY_QUERY, searched: null } });
  });

  it('reads a state saved before the search form was kept', () => {
    const { shown: _shown, query: _query, ...older } = reduce(undefined, pageLoaded(page([1], null)));
    expect(BookmarkState.parse(older)).toMatchObject({ shown: null, query: { form: EMPTY_QUERY, searched: null } });
  });
});

describe('the bookmark operation error and the screen', () => {
  it('is forgotten when the screen changes, and nothing else is', () => {
    const failed = reduce(undefined, errorReported('It failed'));
    expect(failed.operationError).toMatch(/It failed$/);
    expect(reduce(failed, screenChanged())).toEqual({ ...failed, operationError: null });
  });
});
