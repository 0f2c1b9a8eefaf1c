import { parentPort, workerData } from 'node:worker_threads';
import { rowPostingsBuilder } from './catalogue-index.ts';
import { openIndexSource } from './index-sources.ts';
import type { FieldsOptions, FieldsReply } from './index-messages.ts';

/**
 * Builds the postings of some fields from a snapshot of the catalogue of its own, beside the
 * building thread that builds the others (index-build-worker.ts), then ends: the comments are most
 * of a catalogue's words, and the build of their postings takes a core of its own.
 */
const post = (reply: FieldsReply) => parentPort!.postMessage(reply);
const { source: sourceOptions, fields } = workerData as FieldsOptions;
const source = openIndexSource(sourceOptions);

try {
  const builder = rowPostingsBuilder(fields);
  const builtFrom = await source.snapshot((row) => builder.add(row), () => {});
  post({ type: 'built', builtFrom, postings: builder.finish() });
} catch (error) {
  post({ type: 'build-failed', message: error instanceof Error ? error.message : String(error) });
} finally {
  await source.close();
}
