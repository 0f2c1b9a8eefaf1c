import { parentPort, workerData } from 'node:worker_threads';
import { catalogueIndexBuilder, type CatalogueIndex } from './catalogue-index.ts';
import { type IndexSourceOptions, openIndexSource } from './index-sources.ts';
import type { IndexReply, IndexRequest } from './index-messages.ts';

/**
 * The word index's thread: builds the index from the catalogue, answers searches from it, and
 * builds it again when the catalogue has changed. A search that finds no current index answers
 * 'unavailable' (the catalogue's own engine answers it) unless it asks to wait for one.
 */
const source = openIndexSource((workerData as { source: IndexSourceOptions }).source);
let current: { version: string; index: CatalogueIndex } | undefined;
let building: Promise<void> | undefined;

const post = (reply: IndexReply) => parentPort!.postMessage(reply);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function build(): Promise<void> {
  building ??= (async () => {
    current = undefined;
    post({ type: 'building' });
    const builder = catalogueIndexBuilder();
    const version = await source.snapshot((row) => builder.add(row));
    current = { version, index: builder.finish() };
    post({ type: 'built', version, books: current.index.books });
  })().finally(() => {
    building = undefined;
  });
  // Told once here; a search waiting for this build fails with it too.
  building.catch((error: unknown) => post({ type: 'build-failed', message: messageOf(error) }));
  return building;
}

/** After a load: the index is built again from the catalogue it left, once any build under way is done. */
async function refresh() {
  await building?.catch(() => {});
  current = undefined;
  await build();
}

async function search({ id, query, identifier, wait }: Extract<IndexRequest, { type: 'search' }>) {
  for (;;) {
    if (!current) {
      const built = build();
      if (!wait) {
        built.catch(() => {});
        return post({ type: 'answer', id, answer: 'unavailable' });
      }
      await built;
      continue;
    }
    const { version, index } = current;
    const answer = await source.answer(version, identifier, (identified) => index.search(query, identified));
    if (answer !== 'stale') return post({ type: 'answer', id, answer });
    if (current?.version === version) current = undefined;
  }
}


parentPort!.on('message', (request: IndexRequest) => {
  const done = request.type === 'search' ? search(request) : refresh().then(() => post({ type: 'refreshed', id: request.id }));
  done.catch((error: unknown) => post({ type: 'failed', id: request.id, message: messageOf(error) }));
});

build().catch(() => {});
