import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { BOOK_INDEXED_FIELDS, type BookSort, SearchPreparing } from '../../../../contract/books.ts';
import { type ApiDispatch, ASKED_FOR_A_SLICE, failureOf, type LoadSteps, runLoad } from '../../api/api.ts';
import { ALL_FORMATS, splitFields } from './book-search-settings.ts';
import { booksApi } from './books.api.ts';
import {
  bookReceived,
  booksCleared,
  booksReceived,
  errorReported,
  fieldsUpdated,
  formatUpdated,
  fromUpdated,
  keysUpdated,
  searchPreparing,
  sortUpdated,
  type BooksDispatch,
  type BooksRootState,
} from './books.slice.ts';

export type BooksThunk<T = void> = ThunkAction<Promise<T>, BooksRootState, unknown, UnknownAction>;

const { endpoints } = booksApi;

/**
 * Submitting the search form (docs/behaviour/books.md): the text becomes the keys, the list is cleared, the offset
 * set to the page size, and the first page fetched from 0.
 */
export function searchAnew(calls: ApiDispatch, text: string, signal?: AbortSignal): BooksThunk {
  return async (dispatch, getState) => {
    dispatch(keysUpdated(text));
    dispatch(booksCleared());
    dispatch(fromUpdated(getState().app.size));
    await dispatch(searchAgain(calls, signal));
  };
}

/**
 * The stored keys searched again from the first page, with the settings as they are now: after a
 * narrowing is taken away, or a load has changed the catalogue.
 */
export function searchAgain(calls: ApiDispatch, signal?: AbortSignal): BooksThunk {
  return async (dispatch, getState) => {
    // The list shown stays until the new first page replaces it (issue 37: a load's end must not
    // blank the list behind the upload dialog); a failure clears it, as a search's does.
    const taken = await runLoad(calls, signal, false, (steps) => fetchPage(steps, 0, dispatch, getState));
    if (signal?.aborted) return;
    const { error, size } = getState().app;
    if (!taken && error !== null) {
      dispatch(booksCleared());
      dispatch(errorReported(error));
    }
    dispatch(fromUpdated(size));
  };
}

/** "Search everything": the stored words looked for in every field of the word index (issue 37); the books' text is chosen by hand. */
export function searchEverything(calls: ApiDispatch, signal?: AbortSignal): BooksThunk {
  return async (dispatch) => {
    dispatch(fieldsUpdated(BOOK_INDEXED_FIELDS));
    await dispatch(searchAgain(calls, signal));
  };
}

/** A listing's order chosen: the first page again in that order. */
export function searchSorted(calls: ApiDispatch, sort: BookSort, signal?: AbortSignal): BooksThunk {
  return async (dispatch) => {
    dispatch(sortUpdated(sort));
    await dispatch(searchAgain(calls, signal));
  };
}

/** The format chip's close button: every format, searched again. */
export function searchWithoutFormat(calls: ApiDispatch, signal?: AbortSignal): BooksThunk {
  return async (dispatch) => {
    dispatch(formatUpdated(ALL_FORMATS));
    await dispatch(searchAgain(calls, signal));
  };
}

/** A field chip's close button: the search again without that field (none left means none chosen). */
export function searchWithoutField(calls: ApiDispatch, field: string, signal?: AbortSignal): BooksThunk {
  return async (dispatch, getState) => {
    dispatch(fieldsUpdated(splitFields(getState().app.fields).filter((chosen) => chosen !== field)));
    await dispatch(searchAgain(calls, signal));
  };
}

/**
 * 'More' (docs/behaviour/books.md): the page at the current offset, after which the offset moves on by the page
 * size. A failed page leaves the offset where it was, so that 'More' asks for it again.
 */
export function loadMoreBooks(calls: ApiDispatch, signal?: AbortSignal): BooksThunk {
  return async (dispatch, getState) => {
    const { from, total, size } = getState().app;
    if (from >= total) {
      console.warn(`No more books to load: the offset ${from} is at or beyond the total ${total}`);
      return;
    }
    if (await runLoad(calls, signal, false, (steps) => fetchPage(steps, from, dispatch, getState))) dispatch(fromUpdated(from + size));
  };
}

/** Opening a book makes it the current one; the failure's message, for the page to show, or null. */
export function openBook(calls: ApiDispatch, id: string, signal?: AbortSignal): BooksThunk<string | null> {
  return (dispatch) =>
    runLoad(calls, signal, null, async ({ call }) => {
      try {
        dispatch(bookReceived(await call(endpoints.book.initiate(id, ASKED_FOR_A_SLICE))));
        return null;
      } catch (error) {
        return failureOf(error).message;
      }
    });
}

/** Asked again after this long when the server says nothing of when (its `Retry-After`). */
const PREPARING_RETRY_SECONDS = 5;

/** The search's preparation the server refused it for, with when to ask again; null for any other failure. */
function preparation(error: unknown): { progress: number; retrySeconds: number } | null {
  const failure = failureOf(error);
  if (failure.status !== 503) return null;
  const body = SearchPreparing.safeParse(failure.body);
  return body.success ? { progress: body.data.progress, retrySeconds: failure.retryAfterSeconds ?? PREPARING_RETRY_SECONDS } : null;
}

/**
 * Whether the page was taken into the list. While the server prepares its search (docs/book-search.md)
 * the page says how far it is and asks again when the server says to.
 */
async function fetchPage({ call, pause }: LoadSteps, from: number, dispatch: BooksDispatch, getState: () => BooksRootState): Promise<boolean> {
  for (;;) {
    try {
      const settings = getState().app;
      const narrowing = { keys: settings.keys, fields: settings.fields, format: settings.format };
      const results = await call(endpoints.bookResults.initiate({ settings, from }, ASKED_FOR_A_SLICE));
      // A list cleared meanwhile has moved on: the page no longer follows what it holds. A first
      // page replaces whatever the list holds.
      if (from > 0 && getState().app.books.length !== from) return false;
      dispatch(booksReceived({ from, narrowing, ...results }));
      return true;
    } catch (error) {
      const preparing = preparation(error);
      if (preparing === null) {
        dispatch(errorReported(failureOf(error).message));
        return false;
      }
      dispatch(searchPreparing(preparing.progress));
      await pause(preparing.retrySeconds * 1000);
    }
  }
}
