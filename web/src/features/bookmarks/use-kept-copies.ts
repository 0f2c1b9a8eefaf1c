import { useCallback, useMemo } from 'react';
import type { BookmarkArchive } from '../../../../contract/bookmark-archives.ts';
import type { Bookmark } from '../../../../contract/bookmarks.ts';
import { useArchiveSummariesQuery } from './bookmark-archive.api.ts';

/** The cards' copies, read less than this long ago, are shown again without asking. */
const KEPT_FOR_SECONDS = 60;
/** While a copy is being fetched, the cards ask again this often. */
const PENDING_POLL_MS = 2000;

/** A card's copy; `known` false until the copies are read, when the card keeps the line's place empty. */
export type CardCopy = { archive: BookmarkArchive | undefined; known: boolean; onChanged: () => void };

/**
 * The kept copies of the cards shown, asked for in one request per 100 cards, and again every
 * two seconds while one is being fetched; each card's as the prop `BookmarkCard` takes, not
 * `known` until they are (so that no card offers "Keep a copy" for a copy it has). They stay in the
 * cache a minute after the cards go: a list kept on the way back shows them at once, asking nothing.
 */
export function useKeptCopies(bookmarks: readonly Bookmark[]): (id: number) => CardCopy {
  const ids = useMemo(() => bookmarks.map((bookmark) => bookmark.id), [bookmarks]);
  const { data, refetch } = useArchiveSummariesQuery(ids, { skip: ids.length === 0, refetchOnMountOrArgChange: KEPT_FOR_SECONDS });
  const pending = data?.some((copy) => copy.status === 'pending') ?? false;
  useArchiveSummariesQuery(ids, { skip: !pending, pollingInterval: PENDING_POLL_MS });
  const byId = useMemo(() => (data ? new Map(data.map((copy) => [copy.bookmark_id, copy])) : null), [data]);
  const onChanged = useCallback(() => void refetch(), [refetch]);
  return useCallback((id: number) => ({ archive: byId?.get(id), known: byId !== null, onChanged }), [byId, onChanged]);
}
