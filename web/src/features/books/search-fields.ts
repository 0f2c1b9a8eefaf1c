import type { BookSearchField } from '../../../../contract/books.ts';

/** Spec §2: the fields a search can look in, with the names users know them by. */
export const SEARCH_FIELD_LABELS: Readonly<Record<BookSearchField, string>> = {
  title: 'Book Title',
  file_path: 'File Name',
  comment: 'Comment',
  author: 'Author Name',
};

/** The field a search looks in when none is chosen (spec §3: fields default to 'title'; the API does the same). */
export const DEFAULT_SEARCH_FIELD: BookSearchField = 'title';

export const searchFieldLabel = (field: string): string => SEARCH_FIELD_LABELS[field as BookSearchField] ?? field;
