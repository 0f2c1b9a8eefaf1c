import type { BookIndexedField } from '../../../../contract/book-fields.ts';
import type { CatalogueIndexData, IndexQuery } from './catalogue-index.ts';
import type { FieldPostingsData } from './field-postings.ts';
import type { BookRow } from '../book-row.ts';
import type { BuiltFrom } from './index-file.ts';
import type { IndexSourceOptions } from './index-sources.ts';

/** What the building thread is given: where the catalogue is, and the index file to read and write (none: not kept). */
export type BuildOptions = { source: IndexSourceOptions; file: string | undefined };

/**
 * From the building thread: how far it is, then the index of the catalogue `builtFrom` (read from
 * the file, or built from the database), or why there is none.
 */
export type BuildReply =
  | { type: 'progress'; done: number; total: number }
  | { type: 'built'; builtFrom: BuiltFrom; index: CatalogueIndexData; from: 'file' | 'database' }
  | { type: 'build-failed'; message: string };

/** What the thread that builds some fields' postings beside the building thread is given, and what it gives back. */
export type FieldsOptions = { source: IndexSourceOptions; fields: BookIndexedField[] };
export type FieldsReply =
  | { type: 'built'; builtFrom: BuiltFrom; postings: Partial<Record<BookIndexedField, FieldPostingsData>> }
  | { type: 'build-failed'; message: string };

/** What a searching thread is started with: the catalogue, and the file of the books' text (book-text/) when there is a library. */
export type SearcherOptions = { source: IndexSourceOptions; textFile: string | undefined };

/** To a searching thread: the index to search from now on, or a search of it. */
export type SearchRequest =
  | { type: 'use'; version: string; index: Omit<CatalogueIndexData, 'facets'> }
  | { type: 'search'; id: number; query: IndexQuery; identifier: string; comments: boolean; as: keyof AnswerAs };

/**
 * A search's answer in the form asked: the page's rows, or the page as the reply's JSON (written in
 * the searching thread, so that the main thread neither receives the rows nor serialises them).
 */
export type AnswerAs = {
  rows: { total: number; rows: BookRow[] };
  /** With the snippets of the page's books found by their text, by book id. */
  page: { total: number; page: string; snippets: Record<string, string> };
};

/**
 * From it, by id: the answer, with whether a load has committed since its index (`version`) was
 * built, or why there is none.
 */
export type SearchReply =
  | { type: 'answer'; id: number; answer: AnswerAs[keyof AnswerAs]; stale: boolean; version: string }
  | { type: 'failed'; id: number; message: string };
