import { describe, expect, it } from 'vitest';
import {
  bookReceived,
  booksCleared,
  booksReceived,
  bookSearchSlice,
  BookSearchState,
  commentToggled,
  errorReported,
  fieldsUpdated,
  formatUpdated,
  fromUpdated,
  keysUpdated,
  sizeUpdated,
} from './books.slice.ts';
import { aBook, someBooks } from './books.test-data.ts';

const reducer = bookSearchSlice.reducer;
const initial = reducer(undefined, { type: 'start' });
const TITLES = { keys: 'war', fields: 'title', format: '' };

/** A page of a search for "war" in titles, of a catalogue without a library folder. */
const page = (from: number, total: number, books = someBooks(from, 10)) =>
  booksReceived({ from, total, books, narrowing: TITLES, library_folder: '', files_served: false, progress: {}, text_searchable: false, snippets: {} });

function withBooks(count: number, total: number): BookSearchState {
  return reducer({ ...initial, from: count }, page(0, total, someBooks(0, count)));
}

describe('the book search slice', () => {
  it("puts the reply's progress on its books, for the cards' '42 % read'", () => {
    const books = someBooks(0, 3);
    const state = reducer(initial, booksReceived({
        from: 0,
        total: 3,
        books,
        narrowing: TITLES,
        library_folder: '',
        files_served: false,
        progress: { [books[1]!.id]: 0.42 },
        text_searchable: false,
        snippets: {},
      }),);
    expect(state.books.map((book) => book.progress)).toEqual([undefined, 0.42, undefined]);
  });

  it('starts at the defaults of docs/behaviour/books.md', () => {
    expect(initial).toEqual({
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
    });
    expect(BookSearchState.parse(initial)).toEqual(initial);
  });

  it('stores the first page of results in place of the list, with the total', () => {
    const before = { ...withBooks(3, 3), error: 'boom' };

    const state = reducer(before, page(0, 42));

    expect(state.books.map((book) => book.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(state.total).toBe(42);
    expect(state.error).toBeNull();
  });

  it('keeps the search the first page answers and the library folder; a later page keeps that search', () => {
    const first = reducer(initial, booksReceived({ from: 0, total: 42, books: someBooks(0, 10), narrowing: TITLES, library_folder: '/lib', files_served: true, progress: {}, text_searchable: false, snippets: {} }));
    const later = { keys: 'war', fields: 'author', format: 'pdf' };

    expect(first).toMatchObject({ narrowing: TITLES, libraryFolder: '/lib', filesServed: true });
    expect(reducer(first, booksReceived({ from: 10, total: 42, books: someBooks(10, 10), narrowing: later, library_folder: '/lib', files_served: true, progress: {}, text_searchable: false, snippets: {} })))
      .toMatchObject({ narrowing: TITLES });
    expect(reducer(first, booksCleared()).narrowing).toBeNull();
  });

  it('restores a state saved before the narrowing and the library folder were kept', () => {
    const { narrowing: _narrowing, libraryFolder: _libraryFolder, ...saved } = withBooks(3, 3);

    expect(BookSearchState.parse(saved)).toMatchObject({ narrowing: null, libraryFolder: '', total: 3 });
  });

  it('appends the page that continues the list', () => {
    const state = reducer(withBooks(10, 42), page(10, 42));

    expect(state.books.map((book) => book.index)).toEqual(Array.from({ length: 20 }, (_, at) => at));
  });

  it('drops a page that does not continue the list, such as a late reply to an earlier request', () => {
    const before = withBooks(10, 42);

    expect(reducer(before, page(20, 50))).toBe(before);
    expect(reducer(before, page(5, 50))).toBe(before);
  });

  it('clears the list, the total, the error and the offset', () => {
    const state = reducer({ ...withBooks(10, 42), error: 'boom' }, booksCleared());

    expect(state).toEqual({ ...initial, curBook: null });
  });

  it('keeps the current book', () => {
    const book = aBook(0, { comment: '<p>A comment</p>' });

    expect(reducer(initial, bookReceived(book)).curBook).toEqual(book);
  });

  it('updates the offset', () => {
    expect(reducer(initial, fromUpdated(30)).from).toBe(30);
  });

  it('takes the page size from the entries text when it parses, else keeps it', () => {
    const twenty = reducer(initial, sizeUpdated('20'));

    expect(twenty.size).toBe(20);
    expect(reducer(twenty, sizeUpdated('twenty')).size).toBe(20);
    expect(reducer(twenty, sizeUpdated('0')).size).toBe(20);
  });

  it('stores the search text as comma-joined keys', () => {
    expect(reducer(initial, keysUpdated(' c#, lord:of  rings ')).keys).toBe('c%23,lord,of,rings');
  });

  it('stores the chosen fields comma-joined', () => {
    expect(reducer(initial, fieldsUpdated(['title', ' author '])).fields).toBe('title,author');
  });

  it("stores the format, 'all' as empty", () => {
    const epub = reducer(initial, formatUpdated('epub'));

    expect(epub.format).toBe('epub');
    expect(reducer(epub, formatUpdated('all')).format).toBe('');
  });

  it('flips the include-comment flag', () => {
    const on = reducer(initial, commentToggled());

    expect(on.comment).toBe(true);
    expect(reducer(on, commentToggled()).comment).toBe(false);
  });

  it('stores the error message', () => {
    expect(reducer(initial, errorReported('keys must be at most 1000 characters')).error).toBe(
      'keys must be at most 1000 characters',
    );
  });
});
