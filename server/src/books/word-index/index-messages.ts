import type { IndexQuery } from './catalogue-index.ts';
import type { PageAnswer } from './index-sources.ts';

/** To the word index's thread: a search (`wait`: for an index of the current catalogue rather than none), or a rebuild after a load. */
export type IndexRequest =
  | { type: 'search'; id: number; query: IndexQuery; identifier: string; wait: boolean }
  | { type: 'refresh'; id: number };

/** From it: answers by id, and whether an index is there to ask. */
export type IndexReply =
  | { type: 'answer'; id: number; answer: Exclude<PageAnswer, 'stale'> | 'unavailable' }
  | { type: 'refreshed'; id: number }
  | { type: 'failed'; id: number; message: string }
  | { type: 'building' }
  | { type: 'built'; version: string; books: number }
  | { type: 'build-failed'; message: string };
