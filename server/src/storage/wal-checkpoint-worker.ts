import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

// Run by wal-checkpoints.ts: copies the write-ahead log into the database file every `everyMs`, on
// a connection of its own, until told to stop, and once more then. PASSIVE never waits for a
// reader or a writer: what a long reader still needs is copied on a later turn.
const { file, everyMs } = workerData as { file: string; everyMs: number };
const connection = new DatabaseSync(file);
const checkpoint = connection.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => checkpoint.get(), everyMs);
parentPort!.once('message', () => {
  clearInterval(timer);
  checkpoint.get();
  connection.close();
  parentPort!.close();
});
parentPort!.postMessage('ready');
