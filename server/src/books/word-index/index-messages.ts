import type { CatalogueIndexData, IndexQuery } from './catalogue-index.ts';
import type { PageAnswer } from './index-sources.ts';

/** From the building thread: the index of the catalogue at `version`, or why there is none. */
export type BuildReply = { type: 'built'; version: string; index: CatalogueIndexData } | { type: 'build-failed'; message: string };

/** To a searching thread: the index to search from now on, none (the catalogue has changed), or a search of it. */
export type SearchRequest =
  | { type: 'use'; version: string; index: CatalogueIndexData }
  | { type: 'drop' }
  | { type: 'search'; id: number; query: IndexQuery; identifier: string; comments: boolean };

/** From it, by id: the answer, or 'stale' when a load has committed since its index was built. */
export type SearchReply =
  | { type: 'answer'; id: number; answer: Exclude<PageAnswer, 'stale'> }
  | { type: 'stale'; id: number; version: string }
  | { type: 'failed'; id: number; message: string };
