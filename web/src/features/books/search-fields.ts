import type { BookSearchField } from '../../../../contract/books.ts';

/** The fields a search can look in, with the names users know them by (docs/behaviour/books.md). */
export const SEARCH_FIELD_LABELS: Readonly<Record<BookSearchField, string>> = {
  title: 'Book Title',
  file_path: 'File Name',
  comment: 'Comment',
  author: 'Author Name',
  series: 'Series',
  tags: 'Tags',
  identifiers: 'Identifiers',
  text: 'Book text',
};

/** The field a search looks in when none is chosen (docs/behaviour/books.md: fields default to 'title'; the API does the same). */
export const DEFAULT_SEARCH_FIELD: BookSearchField = 'title';

export const searchFieldLabel = (field: string): string => SEARCH_FIELD_LABELS[field as BookSearchField] ?? field;
