import { parentPort, workerData } from 'node:worker_threads';
import { replyPageJson } from '../book-row.ts';
import { catalogueIndex, type CatalogueIndex } from './catalogue-index.ts';
import { type IndexSourceOptions, openIndexSource } from './index-sources.ts';
import type { SearchReply, SearchRequest } from './index-messages.ts';

/**
 * A searching thread of the word index: it answers searches from the index it was last sent (one
 * copy shared by all of them), and reads each page's rows on a connection of its own.
 */
const source = openIndexSource((workerData as { source: IndexSourceOptions }).source);
let current: { version: string; index: CatalogueIndex } | undefined;

const post = (reply: SearchReply) => parentPort!.postMessage(reply);

async function search({ id, query, identifier, comments, as }: Extract<SearchRequest, { type: 'search' }>) {
  // The catalogue sends a search only once it has sent an index, and messages keep their order.
  const { version, index } = current!;
  const { total, rows, stale } = await source.answer(version, { identifier, comments }, (identified) => index.search(query, identified));
  const answer = as === 'rows' ? { total, rows } : { total, page: replyPageJson(rows, query.from, comments) };
  post({ type: 'answer', id, answer, stale, version });
}

parentPort!.on('message', (request: SearchRequest) => {
  if (request.type === 'use') current = { version: request.version, index: catalogueIndex(request.index) };
  else
    search(request).catch((error: unknown) => post({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) }));
});
