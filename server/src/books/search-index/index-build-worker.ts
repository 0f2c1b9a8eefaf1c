import { once } from 'node:events';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { BOOK_INDEXED_FIELDS, type BookIndexedField } from '../../../../contract/book-fields.ts';
import { moduleBeside } from '../../server-files.ts';
import { catalogueIndexBuilder, type CatalogueIndexData } from './catalogue-index.ts';
import { type BuiltFrom, readIndexFile, sameCatalogue, writeIndexFile } from './index-file.ts';
import { type IndexSource, openIndexSource } from './index-sources.ts';
import type { BuildOptions, BuildReply, FieldsOptions, FieldsReply } from './index-messages.ts';

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
/**
 * Built by a thread of their own, from a snapshot of their own: the comments hold three words in
 * four of a catalogue's, so the two threads share the build's work about evenly between two cores
 * (a million books: docs/budgets.md).
 */
const APART: BookIndexedField[] = ['comment'];
/** A load committed between the two threads' snapshots makes them build again, at most this often. */
const ATTEMPTS = 3;

/** The postings of the fields APART, from the thread that builds them. */
async function buildApart(): Promise<Extract<FieldsReply, { type: 'built' }>> {
  const worker = new Worker(moduleBeside(import.meta.url, './index-fields-worker'), { workerData: { source: sourceOptions, fields: APART } satisfies FieldsOptions });
  const [reply] = (await Promise.race([once(worker, 'message'), once(worker, 'error').then(([error]) => Promise.reject(error as Error))])) as [FieldsReply];
  if (reply.type === 'build-failed') throw new Error(reply.message);
  return reply;
}

/** The index built from the database, both threads' snapshots of the same catalogue. */
async function buildFromDatabase(database: IndexSource): Promise<{ builtFrom: BuiltFrom; index: CatalogueIndexData }> {
  for (let attempt = 1; ; attempt++) {
    const apart = buildApart();
    // Its failure is awaited below; until then it must not count as unhandled.
    apart.catch(() => {});
    const builder = catalogueIndexBuilder(BOOK_INDEXED_FIELDS.filter((field) => !APART.includes(field)));
    let total = 0;
    let done = 0;
    const builtFrom = await database.snapshot(
      (row) => {
        builder.add(row);
        if (++done % PROGRESS_STEP === 0) post({ type: 'progress', done, total });
      },
      (books) => {
        total = books;
        post({ type: 'progress', done: 0, total });
      },
    );
    const other = await apart;
    if (sameCatalogue(builtFrom, other.builtFrom)) return { builtFrom, index: builder.finish(other.postings) };
    if (attempt === ATTEMPTS) throw new Error('The catalogue changed during each of the index builds');
  }
}

try {
  const kept = file === undefined ? undefined : readIndexFile(file);
  const stored = kept && 'index' in kept ? await source.builtFrom() : undefined;
  if (kept && 'index' in kept && stored && sameCatalogue(kept.builtFrom, stored)) {
    post({ type: 'built', builtFrom: kept.builtFrom, index: kept.index, from: 'file' });
  } else {
    const { builtFrom, index } = await buildFromDatabase(source);
    post({ type: 'built', builtFrom, index, from: 'database' });
    if (file !== undefined) writeIndexFile(file, builtFrom, index);
  }
} catch (error) {
  post({ type: 'build-failed', message: error instanceof Error ? error.message : String(error) });
} finally {
  await source.close();
}
