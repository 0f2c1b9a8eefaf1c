import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { useDispatch } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { z } from 'zod';
import { Book, type BookResults } from '../../../../contract/books.ts';
import { formatSetting, joinFields, parseEntries, searchKeys } from './book-search-settings.ts';

/**
 * What narrowed the results shown: the settings their search was made with, for the chips above
 * them. The settings themselves may have changed since (they apply to the next search).
 */
export const SearchNarrowing = z.object({
  keys: z.string(),
  fields: z.string(),
  format: z.string(),
});
export type SearchNarrowing = z.infer<typeof SearchNarrowing>;

/** The book search settings and results (spec §3); the spec calls this slice `app`. */
export const BookSearchState = z.object({
  /** Where the next page starts: the spec's 'new start'. */
  from: z.number().int().nonnegative(),
  size: z.number().int().positive(),
  /** Empty means every format. */
  format: z.string(),
  /** Comma-joined words, in the form of spec §5. */
  keys: z.string(),
  /** Comma separated. */
  fields: z.string(),
  /** Whether results carry the comment. */
  comment: z.boolean(),
  error: z.string().nullable(),
  books: z.array(Book),
  total: z.number().int().nonnegative(),
  /** The book the detail page shows. */
  curBook: Book.nullable(),
  /** The search the results answer; null while there are none. Defaults keep a state saved before it. */
  narrowing: SearchNarrowing.nullable().default(null),
  /** The catalogue's library folder (BookResults), below which the cards show paths. */
  libraryFolder: z.string().default(''),
  /** Whether the server serves covers and files (BookResults): the cards ask for thumbnails only then. */
  filesServed: z.boolean().default(false),
});
export type BookSearchState = z.infer<typeof BookSearchState>;

const initialState: BookSearchState = {
  from: 0,
  size: 10,
  format: '',
  keys: '',
  fields: 'title',
  comment: false,
  error: null,
  books: [],
  total: 0,
  curBook: null,
  narrowing: null,
  libraryFolder: '',
  filesServed: false,
};

/** One page of results, where it starts, and the search it answers. */
export interface BookPage extends BookResults {
  from: number;
  narrowing: SearchNarrowing;
}

export const bookSearchSlice = createSlice({
  name: 'app',
  initialState,
  reducers: {
    /**
     * Search results: a page from 0 replaces the list, the page that continues it is appended.
     * Any other page answers a request the list has since moved on from, and is dropped.
     */
    booksReceived(state, action: PayloadAction<BookPage>) {
      const { from, total, books, narrowing, library_folder, files_served } = action.payload;
      if (from === 0) {
        state.books = books;
        state.narrowing = narrowing;
      } else if (from === state.books.length) state.books.push(...books);
      else return;
      state.total = total;
      state.libraryFolder = library_folder;
      state.filesServed = files_served;
      state.error = null;
    },
    bookReceived(state, action: PayloadAction<Book>) {
      state.curBook = action.payload;
    },
    /** 'Clear List': no results, and the next page starts at 0. */
    booksCleared(state) {
      state.books = [];
      state.narrowing = null;
      state.total = 0;
      state.from = 0;
      state.error = null;
    },
    fromUpdated(state, action: PayloadAction<number>) {
      state.from = action.payload;
    },
    /** The 'entries' text; one that is not a positive integer leaves the size as it was. */
    sizeUpdated(state, action: PayloadAction<string>) {
      state.size = parseEntries(action.payload) ?? state.size;
    },
    /** The search box's text. */
    keysUpdated(state, action: PayloadAction<string>) {
      state.keys = searchKeys(action.payload);
    },
    fieldsUpdated(state, action: PayloadAction<readonly string[]>) {
      state.fields = joinFields(action.payload);
    },
    /** The dropdown's choice, 'all' or a format. */
    formatUpdated(state, action: PayloadAction<string>) {
      state.format = formatSetting(action.payload);
    },
    /** The include-comment checkbox sends no value (spec §4): each click flips it. */
    commentToggled(state) {
      state.comment = !state.comment;
    },
    errorReported(state, action: PayloadAction<string>) {
      state.error = action.payload;
    },
  },
});

export const {
  booksReceived,
  bookReceived,
  booksCleared,
  fromUpdated,
  sizeUpdated,
  keysUpdated,
  fieldsUpdated,
  formatUpdated,
  commentToggled,
  errorReported,
} = bookSearchSlice.actions;

/** The part of the root state the book screens read; features do not know the app's store. */
export interface BooksRootState {
  app: BookSearchState;
}

export type BooksDispatch = ThunkDispatch<BooksRootState, unknown, UnknownAction>;
export const useBooksDispatch = useDispatch.withTypes<BooksDispatch>();

export const selectBookSearch = (state: BooksRootState): BookSearchState => state.app;
