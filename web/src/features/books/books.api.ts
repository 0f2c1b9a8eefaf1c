import { Book, type BookFacet, BookResults, BookSearchPreferences, type BookSort, BrowseReply } from '../../../../contract/books.ts';
import { ContinueReading } from '../../../../contract/reading.ts';
import { api, jsonCall } from '../../api/api.ts';
import { bookSearchPath, type BookSearchSettings } from './book-search-settings.ts';

/** The query parameter that lists the books of one value of a facet. */
export const FACET_FILTERS: Readonly<Record<BookFacet, string>> = {
  authors: 'author',
  series: 'series',
  tags: 'tag',
  languages: 'language',
  formats: 'format',
  publishers: 'publisher',
};

/** One page of the books of one author, series, tag…: a listing without words. */
export interface ShelfPage {
  facet: BookFacet;
  value: string;
  sort: BookSort;
  from: number;
  size: number;
}

export const booksApi = api.injectEndpoints({
  endpoints: (build) => ({
    bookResults: build.query<BookResults, { settings: BookSearchSettings; from: number }>({
      query: ({ settings, from }) => jsonCall(bookSearchPath(settings, from), BookResults),
      keepUnusedDataFor: 0,
    }),
    book: build.query<Book, string>({
      query: (id) => jsonCall(`/api/books/${encodeURIComponent(id)}`, Book),
      keepUnusedDataFor: 0,
    }),
    /** "Continue reading": the user's books with a position, the newest first (issue 38). */
    continueReading: build.query<ContinueReading, number>({
      query: (limit) => jsonCall(`/api/books/continue?${new URLSearchParams({ limit: String(limit) })}`, ContinueReading),
      keepUnusedDataFor: 0,
    }),
    /** The account's search settings, kept on the server so that another browser starts where this one left. */
    bookSearchSettings: build.query<BookSearchPreferences, void>({
      query: () => jsonCall('/api/books/search-settings', BookSearchPreferences),
    }),
    saveBookSearchSettings: build.mutation<BookSearchPreferences, BookSearchPreferences>({
      query: (settings) => jsonCall('/api/books/search-settings', BookSearchPreferences, { method: 'PUT', body: settings }),
      async onQueryStarted(_settings, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(booksApi.util.upsertQueryData('bookSearchSettings', undefined, data));
      },
    }),
    /** A facet's values of one letter (the first that has any when empty), with their counts. */
    browseFacet: build.query<BrowseReply, { facet: BookFacet; letter: string }>({
      query: ({ facet, letter }) => jsonCall(`/api/books/browse?${new URLSearchParams({ facet, letter })}`, BrowseReply),
    }),
    shelfPage: build.query<BookResults, ShelfPage>({
      query: ({ facet, value, sort, from, size }) =>
        jsonCall(
          `/api/books?${new URLSearchParams({ [FACET_FILTERS[facet]]: value, sort, from: String(from), size: String(size) })}`,
          BookResults,
        ),
    }),
  }),
});

export const { useContinueReadingQuery, useBookSearchSettingsQuery, useSaveBookSearchSettingsMutation, useBrowseFacetQuery, useShelfPageQuery } = booksApi;
