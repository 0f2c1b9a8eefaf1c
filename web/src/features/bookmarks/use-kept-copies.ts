import { useCallback, useMemo } from 'react';
import type { BookmarkArchive } from '../../../../contract/bookmark-archives.ts';
import type { Bookmark } from '../../../../contract/bookmarks.ts';
import { useArchiveSummariesQuery } from './bookmark-archive.api.ts';

/** While a copy is being fetched, the cards ask again this often. */
const PENDING_POLL_MS = 2000;

export type CardCopy = { archive: BookmarkArchive | undefined; onChanged: () => void };

/**
 * The kept copies of the cards shown, asked for in one request per 100 cards, and again every
 * two seconds while one is being fetched; each card's as the prop `BookmarkCard` takes, none
 * until the copies are known (so that no card offers "Keep a copy" for a copy it has).
 */
export function useKeptCopies(bookmarks: readonly Bookmark[]): (id: number) => CardCopy | undefined {
  const ids = useMemo(() => bookmarks.map((bookmark) => bookmark.id), [bookmarks]);
  const { data, refetch } = useArchiveSummariesQuery(ids, { skip: ids.length === 0 });
  const pending = data?.some((copy) => copy.status === 'pending') ?? false;
  useArchiveSummariesQuery(ids, { skip: !pending, pollingInterval: PENDING_POLL_MS });
  const byId = useMemo(() => (data ? new Map(data.map((copy) => [copy.bookmark_id, copy])) : null), [data]);
  const onChanged = useCallback(() => void refetch(), [refetch]);
  return useCallback((id: number) => (byId ? { archive: byId.get(id), onChanged } : undefined), [byId, onChanged]);
}
