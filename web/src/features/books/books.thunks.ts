import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { errorMessage } from '../../api/api-error.ts';
import type { HttpClient } from '../../api/http-client.ts';
import { ALL_FORMATS, splitFields } from './book-search-settings.ts';
import { fetchBook, searchBooks } from './books.api.ts';
import {
  bookReceived,
  booksCleared,
  booksReceived,
  errorReported,
  fieldsUpdated,
  formatUpdated,
  fromUpdated,
  keysUpdated,
  type BooksDispatch,
  type BooksRootState,
} from './books.slice.ts';

export type BooksThunk<T = void> = ThunkAction<Promise<T>, BooksRootState, unknown, UnknownAction>;

/**
 * Submitting the search form (spec §4): the text becomes the keys, the list is cleared, the offset
 * set to the page size, and the first page fetched from 0.
 */
export function searchAnew(client: HttpClient, text: string, signal?: AbortSignal): BooksThunk {
  return async (dispatch) => {
    dispatch(keysUpdated(text));
    await dispatch(searchAgain(client, signal));
  };
}

/**
 * The stored keys searched again from the first page, with the settings as they are now: after a
 * narrowing is taken away, or a load has changed the catalogue.
 */
export function searchAgain(client: HttpClient, signal?: AbortSignal): BooksThunk {
  return async (dispatch, getState) => {
    dispatch(booksCleared());
    dispatch(fromUpdated(getState().app.size));
    await fetchPage(client, 0, signal, dispatch, getState);
  };
}

/** The format chip's close button: every format, searched again. */
export function searchWithoutFormat(client: HttpClient, signal?: AbortSignal): BooksThunk {
  return async (dispatch) => {
    dispatch(formatUpdated(ALL_FORMATS));
    await dispatch(searchAgain(client, signal));
  };
}

/** A field chip's close button: the search again without that field (none left means none chosen). */
export function searchWithoutField(client: HttpClient, field: string, signal?: AbortSignal): BooksThunk {
  return async (dispatch, getState) => {
    dispatch(fieldsUpdated(splitFields(getState().app.fields).filter((chosen) => chosen !== field)));
    await dispatch(searchAgain(client, signal));
  };
}

/**
 * 'More' (spec §4): the page at the current offset, after which the offset moves on by the page
 * size. A failed page leaves the offset where it was, so that 'More' asks for it again.
 */
export function loadMoreBooks(client: HttpClient, signal?: AbortSignal): BooksThunk {
  return async (dispatch, getState) => {
    const { from, total, size } = getState().app;
    if (from >= total) {
      console.warn(`No more books to load: the offset ${from} is at or beyond the total ${total}`);
      return;
    }
    if (await fetchPage(client, from, signal, dispatch, getState)) dispatch(fromUpdated(from + size));
  };
}

/** Opening a book makes it the current one; the failure's message, for the page to show, or null. */
export function openBook(client: HttpClient, id: string, signal?: AbortSignal): BooksThunk<string | null> {
  return async (dispatch) => {
    try {
      const book = await fetchBook(client, id, signal);
      if (!signal?.aborted) dispatch(bookReceived(book));
      return null;
    } catch (error) {
      return signal?.aborted ? null : errorMessage(error);
    }
  };
}

/** Whether the page was taken into the list. */
async function fetchPage(
  client: HttpClient,
  from: number,
  signal: AbortSignal | undefined,
  dispatch: BooksDispatch,
  getState: () => BooksRootState,
): Promise<boolean> {
  try {
    const settings = getState().app;
    const narrowing = { keys: settings.keys, fields: settings.fields, format: settings.format };
    const results = await searchBooks(client, settings, from, signal);
    // A search submitted or a list cleared meanwhile has aborted this request, or moved the list on.
    if (signal?.aborted || getState().app.books.length !== from) return false;
    dispatch(booksReceived({ from, narrowing, ...results }));
    return true;
  } catch (error) {
    if (!signal?.aborted) dispatch(errorReported(errorMessage(error)));
    return false;
  }
}
