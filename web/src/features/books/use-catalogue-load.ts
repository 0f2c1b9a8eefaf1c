import { useEffect, useRef, useState } from 'react';
import type { CatalogueLoad } from '../../../../contract/books.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { followCatalogueLoads } from './catalogue-load.api.ts';
import { type ReadingStart, timeLeftMs } from './catalogue-load-text.ts';

export interface CatalogueLoadState {
  /** The running load, else the last one; null before the stream has told any. */
  load: CatalogueLoad | null;
  /** When this page first saw the load reading: the rate the time left comes from. */
  readingStart: ReadingStart | null;
  /** At that rate, once steady; else null. */
  timeLeftMs: number | null;
}

/**
 * Follows the catalogue's loads while mounted: the page shows one that runs, whoever started it,
 * and survives a reload. `onLoaded` hears each load that ends done, so the list can show the new catalogue.
 */
export function useCatalogueLoad(onLoaded: () => void): CatalogueLoadState {
  const client = useApiClient();
  const [state, setState] = useState<CatalogueLoadState>({ load: null, readingStart: null, timeLeftMs: null });
  const loaded = useRef(onLoaded);
  useEffect(() => {
    loaded.current = onLoaded;
  });

  useEffect(() => {
    const stop = new AbortController();
    let seen: CatalogueLoad | null = null;
    void followCatalogueLoads(
      client,
      (load) => {
        const endedNow = seen?.id === load.id && seen.phase !== 'done' && load.phase === 'done';
        seen = load;
        const now = Date.now();
        setState((before) => {
          const readingStart =
            load.phase !== 'reading'
              ? null
              : before.readingStart !== null && before.load?.id === load.id
                ? before.readingStart
                : { at: now, read: load.read };
          return { load, readingStart, timeLeftMs: timeLeftMs(load, readingStart, now) };
        });
        if (endedNow) loaded.current();
      },
      stop.signal,
    );
    return () => stop.abort();
  }, [client]);

  return state;
}
