import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import type { BookResults } from '../../../../contract/books.ts';
import type { ApiDispatch } from '../../api/api.ts';
import { ApiError } from '../../api/api-error.ts';
import { createApiStore } from '../../api/api-store.ts';
import type { HttpClient, RequestOptions } from '../../api/http-client.ts';
import {
  bookSearchSlice,
  booksCleared,
  fieldsUpdated,
  formatUpdated,
  sizeUpdated,
  type BookSearchState,
} from './books.slice.ts';
import { someBooks } from './books.test-data.ts';
import { loadMoreBooks, searchAgain, searchAnew, searchWithoutField, searchWithoutFormat } from './books.thunks.ts';

/** A catalogue of `total` books that answers searches as the API does, and records the queries. */
class FakeCatalogue {
  queries: Record<string, string>[] = [];
  failWith: Error | null = null;
  /** While set, replies wait until `release` is called. */
  held: (() => void)[] | null = null;

  total: number;
  libraryFolder = '/srv/Calibre Library';

  constructor(total: number) {
    this.total = total;
  }

  /** The cache's store over the fake, on which the thunks run their calls as in the app. */
  client(): ApiDispatch {
    const json = async <S extends z.ZodType>(path: string, schema: S, options: RequestOptions = {}) => {
      const query = Object.fromEntries(new URL(path, 'http://localhost').searchParams);
      this.queries.push(query);
      if (this.held !== null) await new Promise<void>((resolve) => this.held?.push(resolve));
      if (options.signal?.aborted) throw new DOMException('aborted', 'AbortError');
      if (this.failWith !== null) throw this.failWith;
      const from = Number(query.from);
      const count = Math.max(0, Math.min(Number(query.size), this.total - from));
      const reply: BookResults = { total: this.total, books: someBooks(from, count), library_folder: this.libraryFolder, files_served: false, progress: {}, text_searchable: false, snippets: {} };
      return schema.parse(reply) as z.output<S>;
    };
    const unused = () => Promise.reject(new Error('not used by the book search'));
    const http: HttpClient = { json, empty: unused, stream: unused };
    return createApiStore(http).dispatch;
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const resolve of waiting) resolve();
  }
}

function newStore() {
  return configureStore({ reducer: { app: bookSearchSlice.reducer } });
}

const indexes = (state: BookSearchState) => state.books.map((book) => book.index);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('searching the books', () => {
  it('clears the list, sets the offset to the page size and fetches from 0 with the settings', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    store.dispatch(fieldsUpdated(['title', 'author']));
    const search = store.dispatch(searchAnew(catalogue.client(), 'les  miserables'));

    expect(store.getState().app).toMatchObject({ books: [], from: 10, keys: 'les,miserables' });
    await search;

    expect(catalogue.queries).toEqual([
      { keys: 'les,miserables', fields: 'title,author', from: '0', size: '10', format: '', includeComment: 'false' },
    ]);
    expect(indexes(store.getState().app)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(store.getState().app).toMatchObject({ total: 25, from: 10, error: null });
  });

  it('searched again (after a load), keeps the list shown until the new first page replaces it', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    await store.dispatch(searchAnew(catalogue.client(), 'a'));

    catalogue.total = 12;
    const again = store.dispatch(searchAgain(catalogue.client()));
    expect(indexes(store.getState().app)).toHaveLength(10);
    await again;

    expect(indexes(store.getState().app)).toHaveLength(10);
    expect(store.getState().app).toMatchObject({ total: 12, from: 10 });
  });

  it('replaces the results of an earlier search', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    await store.dispatch(searchAnew(catalogue.client(), 'a'));
    await store.dispatch(loadMoreBooks(catalogue.client()));

    catalogue.total = 3;
    await store.dispatch(searchAnew(catalogue.client(), 'b'));

    expect(indexes(store.getState().app)).toEqual([0, 1, 2]);
    expect(store.getState().app).toMatchObject({ total: 3, from: 10 });
  });

  it('pages with More: fetches from the offset, appends, then moves the offset on by the page size', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    await store.dispatch(searchAnew(catalogue.client(), ''));

    await store.dispatch(loadMoreBooks(catalogue.client()));
    expect(catalogue.queries.at(-1)).toMatchObject({ from: '10', size: '10' });
    expect(store.getState().app.from).toBe(20);

    await store.dispatch(loadMoreBooks(catalogue.client()));
    expect(catalogue.queries.at(-1)).toMatchObject({ from: '20', size: '10' });
    expect(indexes(store.getState().app)).toEqual(Array.from({ length: 25 }, (_, at) => at));
    expect(store.getState().app.from).toBe(30);
  });

  it('pages with the page size of the moment', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    await store.dispatch(searchAnew(catalogue.client(), ''));
    store.dispatch(sizeUpdated('5'));

    await store.dispatch(loadMoreBooks(catalogue.client()));

    expect(catalogue.queries.at(-1)).toMatchObject({ from: '10', size: '5' });
    expect(store.getState().app.from).toBe(15);
    expect(store.getState().app.books).toHaveLength(15);
  });

  it('does nothing but warn when the offset is at or beyond the total', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const catalogue = new FakeCatalogue(10);
    const store = newStore();
    await store.dispatch(searchAnew(catalogue.client(), ''));
    const before = store.getState();

    await store.dispatch(loadMoreBooks(catalogue.client()));

    expect(catalogue.queries).toHaveLength(1);
    expect(store.getState()).toBe(before);
    expect(warn).toHaveBeenCalledOnce();
  });

  it('stores the message of a failed search, and shows it until a search succeeds', async () => {
    const catalogue = new FakeCatalogue(25);
    catalogue.failWith = new ApiError(400, 'size must be at most 100');
    const store = newStore();

    await store.dispatch(searchAnew(catalogue.client(), 'x'));
    expect(store.getState().app).toMatchObject({ error: 'size must be at most 100', books: [], total: 0 });

    catalogue.failWith = null;
    await store.dispatch(searchAnew(catalogue.client(), 'x'));
    expect(store.getState().app).toMatchObject({ error: null, total: 25 });
  });

  it('says how far the server prepares its search, and asks again when it says to, until it answers', async () => {
    vi.useFakeTimers();
    try {
      const catalogue = new FakeCatalogue(25);
      const message = 'The search is being prepared (40 %)';
      catalogue.failWith = new ApiError(503, message, { statusCode: 503, error: 'Service Unavailable', message, progress: 40 }, 7);
      const store = newStore();

      const searching = store.dispatch(searchAnew(catalogue.client(), 'x'));
      await vi.waitFor(() => expect(store.getState().app).toMatchObject({ preparing: 40, error: null }));
      await vi.advanceTimersByTimeAsync(6000);
      expect(catalogue.queries).toHaveLength(1);
      catalogue.failWith = null;
      await vi.advanceTimersByTimeAsync(1000);
      await searching;
      expect(catalogue.queries).toHaveLength(2);
      expect(store.getState().app).toMatchObject({ preparing: null, error: null, total: 25 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows any other 503 as the failure it is, without asking again', async () => {
    const catalogue = new FakeCatalogue(25);
    catalogue.failWith = new ApiError(503, 'Storage is not answering', { statusCode: 503, error: 'Service Unavailable', message: 'Storage is not answering' }, null);
    const store = newStore();
    await store.dispatch(searchAnew(catalogue.client(), 'x'));
    expect(store.getState().app).toMatchObject({ preparing: null, error: 'Storage is not answering' });
    expect(catalogue.queries).toHaveLength(1);
  });

  it('leaves the offset where it was when More fails, so that More asks for the same page again', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    await store.dispatch(searchAnew(catalogue.client(), ''));

    catalogue.failWith = new Error('The server cannot be reached');
    await store.dispatch(loadMoreBooks(catalogue.client()));
    expect(store.getState().app).toMatchObject({ from: 10, error: 'The server cannot be reached' });
    expect(store.getState().app.books).toHaveLength(10);

    catalogue.failWith = null;
    await store.dispatch(loadMoreBooks(catalogue.client()));
    expect(catalogue.queries.at(-1)).toMatchObject({ from: '10' });
    expect(store.getState().app).toMatchObject({ from: 20, error: null });
  });

  it('drops the reply of an aborted search without an error', async () => {
    const catalogue = new FakeCatalogue(25);
    catalogue.held = [];
    const store = newStore();
    const first = new AbortController();

    const stale = store.dispatch(searchAnew(catalogue.client(), 'first', first.signal));
    first.abort();
    catalogue.release();
    await stale;

    expect(store.getState().app).toMatchObject({ books: [], total: 0, error: null });
  });

  it('drops a page that arrives after the list was cleared', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    await store.dispatch(searchAnew(catalogue.client(), ''));
    catalogue.held = [];

    const more = store.dispatch(loadMoreBooks(catalogue.client()));
    store.dispatch(booksCleared());
    catalogue.release();
    await more;

    expect(store.getState().app).toMatchObject({ books: [], total: 0, from: 0 });
  });
});

describe('narrowing a search and taking it away', () => {
  it('keeps the search the results answer and the catalogue’s library folder', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    store.dispatch(fieldsUpdated(['title', 'author']));
    store.dispatch(formatUpdated('epub'));

    await store.dispatch(searchAnew(catalogue.client(), 'war peace'));
    // Settings changed afterwards apply to the next search, not to the results shown.
    store.dispatch(formatUpdated('pdf'));

    expect(store.getState().app).toMatchObject({
      narrowing: { keys: 'war,peace', fields: 'title,author', format: 'epub' },
      libraryFolder: '/srv/Calibre Library',
    });
  });

  it('searches again for every format once the format is taken away', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    store.dispatch(formatUpdated('epub'));
    await store.dispatch(searchAnew(catalogue.client(), 'war'));
    await store.dispatch(loadMoreBooks(catalogue.client()));

    await store.dispatch(searchWithoutFormat(catalogue.client()));

    expect(catalogue.queries.at(-1)).toMatchObject({ keys: 'war', format: '', from: '0' });
    expect(store.getState().app).toMatchObject({ format: '', from: 10, narrowing: { keys: 'war', fields: 'title', format: '' } });
    expect(indexes(store.getState().app)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('searches again without a field once it is taken away, with none when it was the last', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    store.dispatch(fieldsUpdated(['title', 'author']));
    await store.dispatch(searchAnew(catalogue.client(), 'war'));

    await store.dispatch(searchWithoutField(catalogue.client(), 'title'));
    expect(catalogue.queries.at(-1)).toMatchObject({ keys: 'war', fields: 'author', from: '0' });

    await store.dispatch(searchWithoutField(catalogue.client(), 'author'));
    expect(catalogue.queries.at(-1)).toMatchObject({ keys: 'war', fields: '' });
    expect(store.getState().app.narrowing).toEqual({ keys: 'war', fields: '', format: '' });
  });

  it('searches the same keys again from the first page, as after an index upload', async () => {
    const catalogue = new FakeCatalogue(25);
    const store = newStore();
    await store.dispatch(searchAnew(catalogue.client(), 'war'));
    await store.dispatch(loadMoreBooks(catalogue.client()));
    catalogue.total = 30;

    await store.dispatch(searchAgain(catalogue.client()));

    expect(catalogue.queries.at(-1)).toMatchObject({ keys: 'war', from: '0' });
    expect(store.getState().app).toMatchObject({ total: 30, from: 10 });
    expect(store.getState().app.books).toHaveLength(10);
  });
});
