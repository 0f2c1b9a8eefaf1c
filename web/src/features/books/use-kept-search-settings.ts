import { useEffect, useRef, useState } from 'react';
import { useStore } from 'react-redux';
import type { BookSearchPreferences } from '../../../../contract/books.ts';
import { useBookSearchSettingsQuery, useSaveBookSearchSettingsMutation } from './books.api.ts';
import { type BooksRootState, searchPreferencesOf, searchSettingsReceived } from './books.slice.ts';

/**
 * Keeps the search settings with the account (issue 37): the server's are taken once when the page
 * opens, and every later change is saved. Nothing is saved before they are taken, so that a browser's
 * old settings never overwrite what another browser chose since. True once the page may search:
 * the settings are taken, or could not be read (the browser's own then stand).
 */
export function useKeptSearchSettings(): boolean {
  const store = useStore<BooksRootState>();
  const { data, isError, fulfilledTimeStamp } = useBookSearchSettingsQuery();
  const [save] = useSaveBookSearchSettingsMutation();
  // What the cache held from an earlier visit may be stale: another browser may have changed them since.
  const [openedAt] = useState(() => Date.now());
  const fresh = data !== undefined && (fulfilledTimeStamp ?? 0) >= openedAt;
  const taken = useRef(false);

  useEffect(() => {
    if (!fresh) return;
    // Taken once: the reply to a save must not undo a change made while it was on its way.
    if (!taken.current) store.dispatch(searchSettingsReceived(data));
    taken.current = true;
    const preferences = () => JSON.stringify(searchPreferencesOf(store.getState().app));
    let saved = preferences();
    return store.subscribe(() => {
      const now = preferences();
      if (now === saved) return;
      saved = now;
      void save(JSON.parse(now) as BookSearchPreferences);
    });
  }, [fresh, data, store, save]);

  return fresh || isError;
}
