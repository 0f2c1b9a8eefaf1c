import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';

export type IdleCollectionOptions = {
  /** How often the thread looks whether it has gone quiet. */
  everyMs?: number;
  /** The heap's growth past what the last collection left that is worth a collection. */
  grownBytes?: number;
  /** A young generation larger than this is worth one too (a collection at rest leaves it at 1 MB). */
  youngBytes?: number;
};

/** Below this share of a look's interval spent working, the thread is at rest. */
const AT_REST = 0.02;

const heapBytes = () => v8.getHeapStatistics().total_heap_size;
const youngGenerationBytes = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/**
 * V8 grows a thread's heap under load and keeps it: after the benchmark's search rounds the main
 * thread held 133 MB of old space for 62 MB live, a minute later still, since V8 collects to give
 * memory back only when the embedder says it is idle, which Node never does. This says it: once
 * the thread has spent an interval at rest and its heap has grown well past what the last
 * collection left, or its young generation has grown (`--max-semi-space-size`, two 16 MB halves,
 * filled by the server's start alone), one full collection hands the empty pages back: an empty
 * server 162 -> 134 MB. Nothing runs while the thread is busy, so no request waits for it. Needs
 * `--expose-gc` (npm start); without it, does nothing.
 */
export function collectWhenIdle({ everyMs = 10_000, grownBytes = 32 * 2 ** 20, youngBytes = 8 * 2 ** 20 }: IdleCollectionOptions = {}): () => void {
  const collect = globalThis.gc;
  if (!collect) return () => {};
  let left = heapBytes();
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy >= AT_REST || (heapBytes() - left < grownBytes && youngGenerationBytes() <= youngBytes)) return;
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    left = heapBytes();
    last = performance.eventLoopUtilization();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
