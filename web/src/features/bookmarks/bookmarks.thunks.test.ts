import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import { type Bookmark, type BookmarkPage, type BookmarkSearchResult, NO_MORE_RESULTS } from '../../../../contract/bookmarks.ts';
import { ApiError } from '../../api/api-error.ts';
import { createApiStore } from '../../api/api-store.ts';
import type { HttpClient, RequestOptions } from '../../api/http-client.ts';
import { EMPTY_QUERY } from './bookmark-query.ts';
import { bookmarkSlice, querySearched } from './bookmarks.slice.ts';
import { createAndIndex, deleteBookmarks, openList, resumeSearch, saveBookmark, searchPage, tagBookmarks } from './bookmarks.thunks.ts';

const aBookmark = (id: number): Bookmark => ({
  id,
  state: 'unread',
  title: `Bookmark ${id}`,
  link: `https://example.org/${id}`,
  tags: [],
  create_date: '2026-01-05T12:00:00.000Z',
  update_date: '2026-01-05T12:00:00.000Z',
});

/** Answers the bookmark calls as the API does, over `total` indexed bookmarks; the index may be made to fail. */
function fakeApi(total: number) {
  const calls: string[] = [];
  let indexFails = false;
  const json = async <S extends z.ZodType>(path: string, schema: S, options: RequestOptions = {}) => {
    calls.push(`${options.method ?? 'GET'} ${path}`);
    const url = new URL(path, 'http://localhost');
    let reply: unknown;
    if (url.pathname === '/bookmarks/' && options.method === undefined) {
      const size = Number(url.searchParams.get('pageSize'));
      const ids = Array.from({ length: Math.min(size, total) }, (_, at) => at + 1);
      reply = { items: ids.map(aBookmark), total, cursor: size < total ? String(size) : NO_MORE_RESULTS, host_groups: [], tag_groups: [] } satisfies BookmarkPage;
    } else if (url.pathname === '/bookmarks/bulk') {
      reply = { count: (options.body as { ids: number[] }).ids.length };
    } else if (url.pathname === '/api/bookmarks/query') {
      const from = Number(url.searchParams.get('from') ?? 0);
      const size = Number(url.searchParams.get('size'));
      const ids = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, at) => from + at + 1);
      reply = { bookmarks: ids.map((id) => ({ ...aBookmark(id), indexed: true })), total_count: total, total, host_groups: [], tag_groups: [] } satisfies BookmarkSearchResult;
    } else if (url.pathname === '/api/bookmarks/') {
      if (indexFails) throw new ApiError(503, 'index unavailable');
      reply = { ...(options.body as Bookmark), indexed: true };
    } else if (options.method === 'POST') {
      reply = { ...aBookmark(42), ...(options.body as object) };
    } else {
      reply = { ...(options.body as Bookmark), update_date: '2026-01-06T12:00:00.000Z' };
    }
    return schema.parse(reply) as z.output<S>;
  };
  const empty = async (path: string, options: RequestOptions = {}) => {
    calls.push(`${options.method ?? 'GET'} ${path}`);
  };
  const unused = () => Promise.reject(new Error('not used'));
  const http: HttpClient = { json, empty, stream: unused };
  // The thunks run their calls through the cache's store, as in the app.
  const client = createApiStore(http).dispatch;
  return { client, calls, failIndex: () => (indexFails = true) };
}

const newStore = () => configureStore({ reducer: { bookmark: bookmarkSlice.reducer } });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('bookmark thunks', () => {
  it('pages a search by the count loaded and stops at the total', async () => {
    const api = fakeApi(12);
    const store = newStore();
    await store.dispatch(searchPage(api.client, { key_words: ['a'] }));
    expect(store.getState().bookmark.pageCursor).toBe('5');
    await store.dispatch(searchPage(api.client, { key_words: ['a'] }, 5));
    await store.dispatch(searchPage(api.client, { key_words: ['a'] }, 10));
    expect(store.getState().bookmark.bookmarks.map((bookmark) => bookmark.id)).toEqual(Array.from({ length: 12 }, (_, at) => at + 1));
    expect(store.getState().bookmark.pageCursor).toBeNull();
    expect(api.calls).toEqual(['POST /api/bookmarks/query?size=5', 'POST /api/bookmarks/query?size=5&from=5', 'POST /api/bookmarks/query?size=5&from=10']);
    expect(store.getState().bookmark.total).toBe(12);
    // A search without from starts the list again.
    await store.dispatch(searchPage(api.client, { key_words: ['b'] }));
    expect(store.getState().bookmark.bookmarks).toHaveLength(5);
  });

  it('saves, then indexes again; an index failure is only logged', async () => {
    const api = fakeApi(0);
    const store = newStore();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await store.dispatch(saveBookmark(api.client, { ...aBookmark(7), title: 'Edited', indexed: true }))).toBe(true);
    expect(api.calls).toEqual(['PUT /bookmarks/7', 'POST /api/bookmarks/']);
    api.failIndex();
    expect(await store.dispatch(saveBookmark(api.client, { ...aBookmark(7), title: 'Again', indexed: true }))).toBe(true);
    expect(store.getState().bookmark.curBookmark).toMatchObject({ title: 'Again' });
    expect(store.getState().bookmark.operationError).toBeNull();
    expect(logged).toHaveBeenCalledOnce();
  });

  it('creates, then indexes; the created id comes back even when indexing fails', async () => {
    const api = fakeApi(0);
    api.failIndex();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const store = newStore();
    expect(await store.dispatch(createAndIndex(api.client, { title: 'New', link: 'https://example.org/new', tags: [] }))).toBe(42);
    expect(store.getState().bookmark.curBookmark).toMatchObject({ id: 42, title: 'New', indexed: false });
  });

  it('deletes one bookmark by its own call and several by the bulk call, each leaving the list', async () => {
    const api = fakeApi(12);
    const store = newStore();
    await store.dispatch(searchPage(api.client, { key_words: ['a'] }));
    expect(await store.dispatch(deleteBookmarks(api.client, [2]))).toBe(true);
    expect(await store.dispatch(deleteBookmarks(api.client, [4, 5]))).toBe(true);
    expect(await store.dispatch(tagBookmarks(api.client, [1, 3], 'later'))).toBe(true);
    expect(store.getState().bookmark.bookmarks.map((bookmark) => bookmark.id)).toEqual([1, 3]);
    expect(store.getState().bookmark.total).toBe(9);
    expect(api.calls.slice(1)).toEqual(['DELETE /bookmarks/2', 'POST /bookmarks/bulk', 'POST /bookmarks/bulk']);
  });

  it('keeps the list on a return to it, and loads it on an opening or when the bookmarks loaded are another list’s', async () => {
    const api = fakeApi(12);
    const store = newStore();
    await store.dispatch(openList(api.client, {}, false));
    await store.dispatch(openList(api.client, {}, true));
    expect(api.calls).toEqual(['GET /bookmarks/?pageSize=5']);

    await store.dispatch(openList(api.client, {}, false));
    await store.dispatch(openList(api.client, { tag: 'news' }, true));
    await store.dispatch(searchPage(api.client, { key_words: ['a'] }));
    await store.dispatch(openList(api.client, { tag: 'news' }, true));
    expect(api.calls.filter((call) => call.startsWith('GET'))).toEqual([
      'GET /bookmarks/?pageSize=5',
      'GET /bookmarks/?pageSize=5',
      'GET /bookmarks/?pageSize=5&tag=news',
      'GET /bookmarks/?pageSize=5&tag=news',
    ]);

    // Another page size is another list.
    store.dispatch(bookmarkSlice.actions.pageSizeSet(10));
    await store.dispatch(openList(api.client, { tag: 'news' }, true));
    expect(api.calls.at(-1)).toBe('GET /bookmarks/?pageSize=10&tag=news');
  });

  it('resumes a search shown again: as it was, or searched again when another list was loaded meanwhile', async () => {
    const api = fakeApi(12);
    const store = newStore();
    await store.dispatch(resumeSearch(api.client));
    expect(api.calls).toEqual([]);

    const form = { ...EMPTY_QUERY, keyWords: ' garden  notes ' };
    store.dispatch(querySearched(form));
    await store.dispatch(searchPage(api.client, { key_words: ['garden', 'notes'] }));
    await store.dispatch(searchPage(api.client, { key_words: ['garden', 'notes'] }, 5));
    await store.dispatch(resumeSearch(api.client));
    expect(api.calls).toHaveLength(2);
    expect(store.getState().bookmark.bookmarks).toHaveLength(10);

    await store.dispatch(openList(api.client, {}, false));
    await store.dispatch(resumeSearch(api.client));
    expect(api.calls.at(-1)).toBe('POST /api/bookmarks/query?size=5');
    expect(store.getState().bookmark.shown).toBe('search {"key_words":["garden","notes"]}');
  });
});
