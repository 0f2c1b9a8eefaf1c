import { useEffect, useRef } from 'react';
import type { CatalogueLoad } from '../../../../contract/books.ts';
import { type CatalogueLoadState, useCatalogueLoadsQuery } from './catalogue-load.api.ts';

export type { CatalogueLoadState } from './catalogue-load.api.ts';

const NOTHING_HEARD: CatalogueLoadState = { load: null, readingStart: null, timeLeftMs: null };

/**
 * Follows the catalogue's loads while mounted: the page shows one that runs, whoever started it,
 * and survives a reload. `onLoaded` hears each load that ends done, so the list can show the new catalogue.
 */
export function useCatalogueLoad(onLoaded: () => void): CatalogueLoadState {
  // The entry is the stream's: asking again would only empty it.
  const { data: state = NOTHING_HEARD } = useCatalogueLoadsQuery(undefined, { refetchOnMountOrArgChange: false });
  const loaded = useRef(onLoaded);
  useEffect(() => {
    loaded.current = onLoaded;
  });

  const seen = useRef<CatalogueLoad | null>(null);
  const { load } = state;
  useEffect(() => {
    if (load === null) return;
    const before = seen.current;
    seen.current = load;
    if (before?.id === load.id && before.phase !== 'done' && load.phase === 'done') loaded.current();
  }, [load]);

  return state;
}
