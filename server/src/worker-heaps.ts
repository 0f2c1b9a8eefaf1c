import v8 from 'node:v8';

/**
 * `npm start` sizes the main thread's young generation with `--max-semi-space-size` (package.json),
 * where an import's records die young. V8 reads that flag again for every worker thread's isolate
 * and ranks it above the thread's own `resourceLimits`, so each thread got the main thread's young
 * generation whatever it asked for: the catalogue writer, which asks for 2 MB, used 64 MB through a
 * million-book load. The main isolate has its size by the time this runs; cleared (0 is V8's
 * "unset"), the flag leaves each later thread the young generation it asks for.
 */
export function letWorkersSizeTheirYoungGeneration(): void {
  v8.setFlagsFromString('--max-semi-space-size=0');
}
