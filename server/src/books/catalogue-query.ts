import type { BOOK_FORMATS, BookSearchField, BookSort, BrowseFilter } from '../../../contract/books.ts';

/**
 * A search of the catalogue as the books service asks it (`catalogueQuery` in books.search.ts
 * makes one of a request's query), apart from the catalogue itself, so that the word index and
 * the ranking that take it do not import the catalogue that uses them.
 */
export type CatalogueQuery = {
  /** Normalised words, each matched as a prefix; empty lists by last update. */
  terms: string[];
  /** The keys as an identifier (see typedIdentifier); books with that identifier match too. */
  identifier: string;
  fields: BookSearchField[];
  format: '' | (typeof BOOK_FORMATS)[number];
  from: number;
  size: number;
  /**
   * Whether the books' comments are wanted. When they are not, a catalogue may answer them as
   * null: the word index does, since they were a third of the cost of reading a page's rows.
   */
  comments: boolean;
  /** The order of a listing (a search with words is ranked). */
  sort: BookSort;
  /** Browsing: only the books of these authors, series… exactly as named. */
  browse: Partial<Record<BrowseFilter, string>>;
};
