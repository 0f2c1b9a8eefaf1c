import { useCallback, useEffect, useState } from 'react';
import { useSelector } from 'react-redux';
import { Link, useSearchParams } from 'react-router';
import { useApiDispatch, useCallsUnderWay, useSupersedingLoads } from '../../api/api.ts';
import { useReturnVisit } from '../../lib/history.ts';
import { BookmarkBulkBar } from './bookmark-bulk-bar.tsx';
import { BookmarkFileButtons } from './bookmark-file-buttons.tsx';
import { BookmarkletLink } from './bookmarklet-link.tsx';
import { BookmarkResults } from './bookmark-results.tsx';
import { selectBookmarks, useBookmarksDispatch } from './bookmarks.slice.ts';
import { BookmarkStateTabs, stateOfParams } from './bookmark-state-tabs.tsx';
import { deleteBookmarks, type ListFilter, loadBookmarks, markBookmark, openList, tagBookmarks } from './bookmarks.thunks.ts';

/**
 * Bookmark list (docs/behaviour/bookmarks.md): the first page on opening, filtered by the URL's tag and dates, and by
 * its read-later state (Unread / All / Archived); bookmarks can be selected for a bulk edit. Back from a bookmark shows
 * the list as it was left.
 */
export function BookmarkListPage() {
  const calls = useApiDispatch();
  const dispatch = useBookmarksDispatch();
  const state = useSelector(selectBookmarks);
  const [params] = useSearchParams();
  const busy = useCallsUnderWay('bookmarkPage');
  const { next: nextLoad } = useSupersedingLoads();
  const tag = params.get('tag') ?? undefined;
  const start = params.get('start_date') ?? undefined;
  const end = params.get('end_date') ?? undefined;
  const readState = stateOfParams(params);
  const { pageSize } = state;
  // A selection belongs to the list it was made on: another filter starts with none.
  const listKey = params.toString();
  const [selection, setSelection] = useState<{ listKey: string; ids: ReadonlySet<number> }>({ listKey, ids: new Set() });
  const selected = selection.listKey === listKey ? selection.ids : new Set<number>();
  const setSelected = useCallback((ids: ReadonlySet<number>) => setSelection({ listKey, ids }), [listKey]);

  const returning = useReturnVisit();

  useEffect(() => {
    void dispatch(openList(calls, { tag, start_date: start, end_date: end, state: readState }, returning, nextLoad()));
  }, [calls, dispatch, nextLoad, tag, start, end, readState, pageSize, returning]);

  const onSelect = useCallback(
    (id: number, on: boolean) => {
      setSelection((current) => {
        const next = new Set(current.listKey === listKey ? current.ids : []);
        if (on) next.add(id);
        else next.delete(id);
        return { listKey, ids: next };
      });
    },
    [listKey],
  );

  const filter: ListFilter = { tag, start_date: start, end_date: end, state: readState };
  const reload = () => dispatch(loadBookmarks(calls, filter, false, nextLoad()));
  const chosen = state.bookmarks.filter((bookmark) => selected.has(bookmark.id)).map((bookmark) => bookmark.id);

  async function deleteChosen() {
    const deleted = await dispatch(deleteBookmarks(calls, chosen));
    if (deleted) setSelected(new Set());
    return deleted;
  }

  async function tagChosen(newTag: string) {
    const tagged = await dispatch(tagBookmarks(calls, chosen, newTag));
    // Done with: a selection kept would wait for a later "Delete selected" to take it by surprise (issue 37).
    if (tagged) {
      setSelected(new Set());
      await reload();
    }
    return tagged;
  }

  return (
    <section id="bookmark-list">
      <h1 className="h4 mb-3">Bookmarks</h1>
      <BookmarkFileButtons onImported={reload} />
      <BookmarkletLink />
      <BookmarkStateTabs params={params} />
      {tag !== undefined && (
        <p className="mb-2" id="bookmark-tag-filter">
          {`Tagged “${tag}” `}
          <Link to="/bookmark" className="small">
            (show all)
          </Link>
        </p>
      )}
      <BookmarkBulkBar
        selected={chosen.length}
        loaded={state.bookmarks.length}
        onSelectAll={() => setSelected(new Set(state.bookmarks.map((bookmark) => bookmark.id)))}
        onClear={() => setSelected(new Set())}
        onDelete={deleteChosen}
        onAddTag={tagChosen}
      />
      <BookmarkResults
        state={state}
        busy={busy}
        onMore={() => void dispatch(loadBookmarks(calls, filter, true, nextLoad()))}
        selection={{ selected, onSelect }}
        onState={(id, to) => void dispatch(markBookmark(calls, id, to, readState))}
      />
    </section>
  );
}
