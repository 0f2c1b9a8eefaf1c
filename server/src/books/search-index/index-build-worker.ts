import { parentPort, workerData } from 'node:worker_threads';
import { catalogueIndexBuilder } from './catalogue-index.ts';
import { readIndexFile, sameCatalogue, writeIndexFile } from './index-file.ts';
import { openIndexSource } from './index-sources.ts';
import type { BuildOptions, BuildReply } from './index-messages.ts';

/**
 * Gives the word index of the catalogue as it is stored now, then ends: read from the index file
 * when that is whole and of this catalogue, else built from the database and written to the file
 * for the next start. The index's arrays are in shared memory, and the words, maps and rows that
 * building held go with this thread's heap.
 */
const post = (reply: BuildReply) => parentPort!.postMessage(reply);
const { source: sourceOptions, file } = workerData as BuildOptions;
const source = openIndexSource(sourceOptions);
/** Progress is told at most this often, in books read. */
const PROGRESS_STEP = 5000;

try {
  const kept = file === undefined ? undefined : readIndexFile(file);
  const stored = kept && 'index' in kept ? await source.builtFrom() : undefined;
  if (kept && 'index' in kept && stored && sameCatalogue(kept.builtFrom, stored)) {
    post({ type: 'built', builtFrom: kept.builtFrom, index: kept.index, from: 'file' });
  } else {
    const builder = catalogueIndexBuilder();
    let total = 0;
    let done = 0;
    const builtFrom = await source.snapshot(
      (row) => {
        builder.add(row);
        if (++done % PROGRESS_STEP === 0) post({ type: 'progress', done, total });
      },
      (books) => {
        total = books;
        post({ type: 'progress', done: 0, total });
      },
    );
    const index = builder.finish();
    post({ type: 'built', builtFrom, index, from: 'database' });
    if (file !== undefined) writeIndexFile(file, builtFrom, index);
  }
} catch (error) {
  post({ type: 'build-failed', message: error instanceof Error ? error.message : String(error) });
} finally {
  await source.close();
}
