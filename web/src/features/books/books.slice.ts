import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { useDispatch } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { z } from 'zod';
import { Book, BOOK_SORTS, type BookResults, type BookSearchPreferences, type BookSort } from '../../../../contract/books.ts';
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

/** The book search settings and results (docs/behaviour/books.md); the store calls this slice `app`. */
export const BookSearchState = z.object({
  /** Where the next page starts: the 'new start' line. */
  from: z.number().int().nonnegative(),
  size: z.number().int().positive(),
  /** Empty means every format. */
  format: z.string(),
  /** Comma-joined words, in the form of docs/behaviour/books.md. */
  keys: z.string(),
  /** Comma separated. */
  fields: z.string(),
  /** Whether results carry the comment. */
  comment: z.boolean(),
  /** The order of a listing without words (a search with words is ranked). Defaults keep a state saved before it. */
  sort: z.enum(BOOK_SORTS).default('updated'),
  /** The results as cards in a list or as covers in a grid. */
  view: z.enum(['list', 'grid']).default('list'),
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
  /** Whether the books' text can be searched (BookResults): "Book text" is offered only then. */
  textSearchable: z.boolean().default(false),
  /** A few words of the text of each loaded book found by it, by book id (BookResults). */
  snippets: z.record(z.string(), z.string()).default({}),
  /** How far the server's preparation of its search is, in percent, while it refuses searches for it; null otherwise. */
  preparing: z.number().int().min(0).max(100).nullable().default(null),
});
export type BookSearchState = z.infer<typeof BookSearchState>;

const initialState: BookSearchState = {
  from: 0,
  size: 10,
  format: '',
  keys: '',
  fields: 'title',
  comment: false,
  sort: 'updated',
  view: 'list',
  error: null,
  books: [],
  total: 0,
  curBook: null,
  narrowing: null,
  libraryFolder: '',
  filesServed: false,
  textSearchable: false,
  snippets: {},
  preparing: null,
};

/**
 * A page's books, each with how far the user has read it (issue 38): the reply gives that beside
 * the books, by id, and a card shows it as its book's own.
 */
export function withProgress({ books, progress }: Pick<BookResults, 'books' | 'progress'>): Book[] {
  return books.map((book) => (progress[book.id] === undefined ? book : { ...book, progress: progress[book.id] }));
}

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
      const { from, total, narrowing, library_folder, files_served, text_searchable, snippets } = action.payload;
      const books = withProgress(action.payload);
      if (from === 0) {
        state.books = books;
        state.narrowing = narrowing;
        state.snippets = snippets;
      } else if (from === state.books.length) {
        state.books.push(...books);
        Object.assign(state.snippets, snippets);
      } else return;
      state.textSearchable = text_searchable;
      state.total = total;
      state.libraryFolder = library_folder;
      state.filesServed = files_served;
      state.error = null;
      state.preparing = null;
    },
    bookReceived(state, action: PayloadAction<Book>) {
      state.curBook = action.payload;
    },
    /** 'Clear List': no results, and the next page starts at 0. */
    booksCleared(state) {
      state.books = [];
      state.narrowing = null;
      state.snippets = {};
      state.total = 0;
      state.from = 0;
      state.error = null;
      state.preparing = null;
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
    /** The include-comment checkbox sends no value (docs/behaviour/books.md): each click flips it. */
    commentToggled(state) {
      state.comment = !state.comment;
    },
    sortUpdated(state, action: PayloadAction<BookSort>) {
      state.sort = action.payload;
    },
    viewUpdated(state, action: PayloadAction<'list' | 'grid'>) {
      state.view = action.payload;
    },
    /** The settings the account keeps on the server (issue 37), taken as they are. */
    searchSettingsReceived(state, action: PayloadAction<BookSearchPreferences>) {
      const { fields, size, format, comment, sort, view } = action.payload;
      Object.assign(state, { fields: fields.join(','), size, format, comment, sort, view });
    },
    errorReported(state, action: PayloadAction<string>) {
      state.error = action.payload;
      state.preparing = null;
    },
    /** The server is preparing its search (a 503 with its progress): the page says how far, and asks again. */
    searchPreparing(state, action: PayloadAction<number>) {
      state.preparing = action.payload;
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
  sortUpdated,
  viewUpdated,
  searchSettingsReceived,
  errorReported,
  searchPreparing,
} = bookSearchSlice.actions;

/** The part of the root state the book screens read; features do not know the app's store. */
export interface BooksRootState {
  app: BookSearchState;
}

export type BooksDispatch = ThunkDispatch<BooksRootState, unknown, UnknownAction>;
export const useBooksDispatch = useDispatch.withTypes<BooksDispatch>();

export const selectBookSearch = (state: BooksRootState): BookSearchState => state.app;

/** The settings of the slice the account keeps on the server. */
export function searchPreferencesOf(state: BookSearchState): BookSearchPreferences {
  const fields = state.fields.split(',').filter(Boolean) as BookSearchPreferences['fields'];
  return { fields, size: state.size, format: state.format as BookSearchPreferences['format'], comment: state.comment, sort: state.sort, view: state.view };
}
