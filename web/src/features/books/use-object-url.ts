import { skipToken } from '@reduxjs/toolkit/query';
import { useObjectUrlQuery } from './library-files.api.ts';

/**
 * A `blob:` URL of what the API answers at `path` (null: nothing to fetch yet), revoked once no
 * component shows it; null while loading and when the API has nothing.
 */
export function useObjectUrl(path: string | null): string | null {
  // A URL made once serves every component showing the path: fetched again, the one shown would be replaced.
  const { currentData } = useObjectUrlQuery(path ?? skipToken, { refetchOnMountOrArgChange: false });
  return currentData ?? null;
}
