import { parentPort, workerData } from 'node:worker_threads';
import { catalogueIndexBuilder } from './catalogue-index.ts';
import { type IndexSourceOptions, openIndexSource } from './index-sources.ts';
import type { BuildReply } from './index-messages.ts';

/**
 * Builds the word index from the catalogue and sends it, then ends: the index's arrays are in
 * shared memory, and the words, maps and rows that building held go with this thread's heap.
 */
const post = (reply: BuildReply) => parentPort!.postMessage(reply);
const source = openIndexSource((workerData as { source: IndexSourceOptions }).source);
try {
  const builder = catalogueIndexBuilder();
  const version = await source.snapshot((row) => builder.add(row));
  post({ type: 'built', version, index: builder.finish() });
} catch (error) {
  post({ type: 'build-failed', message: error instanceof Error ? error.message : String(error) });
} finally {
  await source.close();
}
