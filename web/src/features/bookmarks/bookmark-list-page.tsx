import { useEffect } from 'react';
import { useSelector } from 'react-redux';
import { useSearchParams } from 'react-router';
import { useApiClient } from '../../api/api-client-context.ts';
import { useRequest } from '../../lib/use-request.ts';
import { BookmarkFileButtons } from './bookmark-file-buttons.tsx';
import { BookmarkResults } from './bookmark-results.tsx';
import { selectBookmarks, useBookmarksDispatch } from './bookmarks.slice.ts';
import { type ListFilter, loadBookmarks } from './bookmarks.thunks.ts';

/** Spec §2 Bookmark list: the first page on opening, filtered by the URL's tag and dates. */
export function BookmarkListPage() {
  const client = useApiClient();
  const dispatch = useBookmarksDispatch();
  const state = useSelector(selectBookmarks);
  const [params] = useSearchParams();
  const { busy, run, cancel } = useRequest();
  const tag = params.get('tag') ?? undefined;
  const start = params.get('start_date') ?? undefined;
  const end = params.get('end_date') ?? undefined;

  useEffect(() => {
    void run((signal) => dispatch(loadBookmarks(client, { tag, start_date: start, end_date: end }, false, signal)));
    return cancel;
  }, [client, dispatch, run, cancel, tag, start, end]);

  const filter: ListFilter = { tag, start_date: start, end_date: end };
  const reload = () => run((signal) => dispatch(loadBookmarks(client, filter, false, signal)));
  return (
    <section id="bookmark-list">
      <BookmarkFileButtons onImported={reload} />
      <BookmarkResults state={state} busy={busy} onMore={() => void run((signal) => dispatch(loadBookmarks(client, filter, true, signal)))} />
    </section>
  );
}
