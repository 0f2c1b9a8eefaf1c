import type { CatalogueLoad } from '../../../../contract/books.ts';
import { megabytes } from '../../lib/progress.ts';

/** Where reading started (or was first seen): the rate that the time left is estimated from. */
export type ReadingStart = { at: number; read: number };

/** Before this long of reading, the rate still swings with the first batches: no time left is told. */
export const STEADY_AFTER_MS = 3000;

export const isLoadRunning = (load: CatalogueLoad) => !['done', 'failed', 'cancelled'].includes(load.phase);

const count = (n: number) => n.toLocaleString('en');

/** Spec's slim bar on the books page: "Loading the catalogue: 412,000 of about 1,000,000 books". */
export function loadingBarText(load: CatalogueLoad): string {
  if (load.phase === 'receiving') {
    const total = load.total_bytes === null ? '' : ` of ${megabytes(load.total_bytes)}`;
    return `Loading the catalogue: receiving the file, ${megabytes(load.bytes)}${total}`;
  }
  if (load.estimated_total === null) return `Loading the catalogue: ${count(load.read)} books so far`;
  return `Loading the catalogue: ${count(load.read)} of about ${count(Math.max(load.estimated_total, load.read))} books`;
}

/** The server phase in the upload dialog: counts read, written and refused, as the importer tells them. */
export function serverPhaseText(load: CatalogueLoad): string {
  const of = load.estimated_total === null ? '' : ` of about ${count(Math.max(load.estimated_total, load.read))}`;
  const step = load.phase === 'writing' ? 'saving' : 'reading';
  return `${step}: ${count(load.read)}${of} read, ${count(load.written)} written, ${count(load.errors)} errors`;
}

/** The time left at the rate since `start`, once that rate is steady and the total is estimated; else null. */
export function timeLeftMs(load: CatalogueLoad, start: ReadingStart | null, now: number): number | null {
  if (start === null || load.phase !== 'reading' || load.estimated_total === null) return null;
  const elapsed = now - start.at;
  const done = load.read - start.read;
  if (elapsed < STEADY_AFTER_MS || done <= 0) return null;
  return (Math.max(load.estimated_total - load.read, 0) * elapsed) / done;
}

export function timeLeftText(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `about ${seconds} s left`;
  const minutes = Math.round(seconds / 60);
  return `about ${minutes} min left`;
}
