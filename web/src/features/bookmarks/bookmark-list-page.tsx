import { useEffect } from 'react';
import { useSelector } from 'react-redux';
import { useSearchParams } from 'react-router';
import { useApiClient } from '../../api/api-client-context.ts';
import { BookmarkFileButtons } from './bookmark-file-buttons.tsx';
import { BookmarkResults } from './bookmark-results.tsx';
import { selectBookmarks, useBookmarksDispatch } from './bookmarks.slice.ts';
import { type ListFilter, loadBookmarks } from './bookmarks.thunks.ts';
import { useBusy } from './use-busy.ts';

/** Spec §2 Bookmark list: the first page on opening, filtered by the URL's tag and dates. */
export function BookmarkListPage() {
  const client = useApiClient();
  const dispatch = useBookmarksDispatch();
  const state = useSelector(selectBookmarks);
  const [params] = useSearchParams();
  const [busy, run] = useBusy();
  const tag = params.get('tag') ?? undefined;
  const start = params.get('start_date') ?? undefined;
  const end = params.get('end_date') ?? undefined;

  useEffect(() => {
    void run(() => dispatch(loadBookmarks(client, { tag, start_date: start, end_date: end })));
  }, [client, dispatch, run, tag, start, end]);

  const filter: ListFilter = { tag, start_date: start, end_date: end };
  const reload = () => run(() => dispatch(loadBookmarks(client, filter)));
  return (
    <section id="bookmark-list">
      <BookmarkFileButtons onImported={reload} />
      <BookmarkResults state={state} busy={busy} onMore={() => void run(() => dispatch(loadBookmarks(client, filter, true)))} />
    </section>
  );
}
