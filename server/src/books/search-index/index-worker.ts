import { parentPort, workerData } from 'node:worker_threads';
import { replyPageJson } from '../book-row.ts';
import { type BookTextSearch, bookTextSearch } from '../book-text/book-text-file.ts';
import { catalogueIndex, type CatalogueIndex } from './catalogue-index.ts';
import { openIndexSource } from './index-sources.ts';
import type { SearcherOptions, SearchReply, SearchRequest } from './index-messages.ts';

/**
 * A searching thread of the word index: it answers searches from the index it was last sent (one
 * copy shared by all of them), and reads each page's rows on a connection of its own. A search of
 * the books' text (the `text` field) asks the file of the text (book-text/) which books have the
 * words, and those the catalogue holds match as well as those the index finds in the other fields.
 */
const { source: sourceOptions, textFile } = workerData as SearcherOptions;
const source = openIndexSource(sourceOptions);
let current: { version: string; index: CatalogueIndex } | undefined;
// Opened at the first search of the text once the file exists: it may be made after this thread starts.
let bookText: BookTextSearch | undefined;
const textSearch = () => (bookText ??= textFile === undefined ? undefined : bookTextSearch(textFile));

const post = (reply: SearchReply) => parentPort!.postMessage(reply);

async function search({ id, query, identifier, comments, as }: Extract<SearchRequest, { type: 'search' }>) {
  // The catalogue sends a search only once it has sent an index, and messages keep their order.
  const { version, index } = current!;
  const text = query.fields.includes('text') ? textSearch() : undefined;
  const textIds = text ? text.find(query.terms) : [];
  const { total, rows, stale } = await source.answer(version, { identifier, comments, textIds }, (identified) => index.search(query, identified));
  if (as === 'rows') {
    post({ type: 'answer', id, answer: { total, rows }, stale, version });
    return;
  }
  const foundByText = new Set(textIds);
  const snippets = text ? text.snippets(query.terms, rows.map((row) => row.id).filter((book) => foundByText.has(book))) : {};
  post({ type: 'answer', id, answer: { total, page: replyPageJson(rows, query.from, comments), snippets }, stale, version });
}

parentPort!.on('message', (request: SearchRequest) => {
  if (request.type === 'use') current = { version: request.version, index: catalogueIndex(request.index) };
  else
    search(request).catch((error: unknown) => post({ type: 'failed', id: request.id, message: error instanceof Error ? error.message : String(error) }));
});
