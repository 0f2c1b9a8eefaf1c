import { parentPort, workerData } from 'node:worker_threads';
import { updateBookText } from './book-text-update.ts';

/** Where the update reads and writes: Calibre's full-text database and the file of the books' text. */
export type BookTextUpdateOptions = { calibreDb: string; file: string };
export type BookTextUpdateReply = { type: 'updated'; books: number; changed: number } | { type: 'failed'; message: string };

const { calibreDb, file } = workerData as BookTextUpdateOptions;
let reply: BookTextUpdateReply;
try {
  reply = { type: 'updated', ...updateBookText(calibreDb, file) };
} catch (error) {
  reply = { type: 'failed', message: error instanceof Error ? error.message : String(error) };
}
parentPort!.postMessage(reply);
