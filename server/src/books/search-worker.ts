import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import type { CatalogueQuery } from './catalogue.ts';
import { catalogueSearcher } from './catalogue.sqlite.ts';

/** A search worker: one read-only connection to the catalogue, one search at a time. */
const connection = new DatabaseSync((workerData as { file: string }).file, { readOnly: true });
connection.exec('PRAGMA busy_timeout = 10000');
const search = catalogueSearcher(connection);

parentPort!.on('message', ({ id, query }: { id: number; query: CatalogueQuery }) => {
  try {
    parentPort!.postMessage({ id, result: search(query) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
