import { useState } from 'react';
import { errorMessage } from '../api/api-error.ts';

interface ListQuery<T> {
  data?: T | undefined;
  error?: unknown;
  isFetching: boolean;
}

/**
 * A list from the cache and the changes made to it. A change invalidates the list, which the cache
 * loads again, so a screen never reloads it by hand. Busy while a change runs or the list loads;
 * the error shown is the last change's, else the list's own.
 */
export function useListChanges<T>(list: ListQuery<T>) {
  const [changing, setChanging] = useState(0);
  const [failure, setFailure] = useState<string | null>(null);

  async function change(action: () => Promise<unknown>): Promise<boolean> {
    setFailure(null);
    setChanging((count) => count + 1);
    try {
      await action();
      return true;
    } catch (error) {
      setFailure(errorMessage(error));
      return false;
    } finally {
      setChanging((count) => count - 1);
    }
  }

  return {
    items: list.data ?? null,
    busy: changing > 0 || list.isFetching,
    error: failure ?? (list.error === undefined ? null : errorMessage(list.error)),
    change,
  };
}
