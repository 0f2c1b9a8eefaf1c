import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { type SearchPlan, searchPlanRunner } from './search-plan.ts';

/** A search worker: one read-only connection to the catalogue, one search at a time. */
const connection = new DatabaseSync((workerData as { file: string }).file, { readOnly: true });
connection.exec('PRAGMA busy_timeout = 10000');
const search = searchPlanRunner(connection);

parentPort!.on('message', ({ id, plan }: { id: number; plan: SearchPlan }) => {
  try {
    parentPort!.postMessage({ id, result: search(plan) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
