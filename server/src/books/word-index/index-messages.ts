import type { CatalogueIndexData, IndexQuery } from './catalogue-index.ts';
import type { BookRow } from '../book-row.ts';

/** From the building thread: the index of the catalogue at `version`, or why there is none. */
export type BuildReply = { type: 'built'; version: string; index: CatalogueIndexData } | { type: 'build-failed'; message: string };

/** To a searching thread: the index to search from now on, none (the catalogue has changed), or a search of it. */
export type SearchRequest =
  | { type: 'use'; version: string; index: CatalogueIndexData }
  | { type: 'drop' }
  | { type: 'search'; id: number; query: IndexQuery; identifier: string; comments: boolean; as: keyof AnswerAs };

/**
 * A search's answer in the form asked: the page's rows, or the page as the reply's JSON (written in
 * the searching thread, so that the main thread neither receives the rows nor serialises them).
 */
export type AnswerAs = { rows: { total: number; rows: BookRow[] }; page: { total: number; page: string } };

/** From it, by id: the answer, or 'stale' when a load has committed since its index was built. */
export type SearchReply =
  | { type: 'answer'; id: number; answer: AnswerAs[keyof AnswerAs] }
  | { type: 'stale'; id: number; version: string }
  | { type: 'failed'; id: number; message: string };
