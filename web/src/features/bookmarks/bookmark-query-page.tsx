import { type FormEvent, lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { useSelector } from 'react-redux';
import { useApiDispatch, useCallsUnderWay, useSupersedingLoads } from '../../api/api.ts';
import { useReturnVisit } from '../../lib/history.ts';
import { FilterChips } from './bookmark-filter-chips.tsx';
import { BookmarkResults } from './bookmark-results.tsx';
import { type QueryForm, querySpec } from './bookmark-query.ts';
import { queryFormChanged, querySearched, searchEntered, selectBookmarks, useBookmarksDispatch } from './bookmarks.slice.ts';
import { markBookmark, resumeSearch, searchPage } from './bookmarks.thunks.ts';

// react-select and the dialog load when the dialog is first opened, not with the page.
const loadModal = () => import('./query-config-modal.tsx');
const QueryConfigModal = lazy(async () => ({ default: (await loadModal()).QueryConfigModal }));

/** Bookmark search (docs/behaviour/bookmarks.md); the form and the results stay in the slice, for Back from a bookmark. */
export function BookmarkQueryPage() {
  const calls = useApiDispatch();
  const dispatch = useBookmarksDispatch();
  const state = useSelector(selectBookmarks);
  const { form, searched } = state.query;
  const returning = useReturnVisit();
  const [problem, setProblem] = useState<string | null>(null);
  const [dialog, setDialog] = useState({ opened: false, shown: false });
  const busy = useCallsUnderWay('searchBookmarks');
  const { next: nextLoad } = useSupersedingLoads();
  const setForm = (next: QueryForm) => dispatch(queryFormChanged(next));

  // Before the first paint, so that the results of an earlier visit never flash up.
  useLayoutEffect(() => {
    if (!returning) dispatch(searchEntered());
  }, [dispatch, returning]);
  useEffect(() => {
    if (returning) void dispatch(resumeSearch(calls, nextLoad()));
  }, [calls, dispatch, nextLoad, returning]);

  function searchFor(next: QueryForm): string | null {
    const spec = querySpec(next);
    if (typeof spec === 'string') return spec;
    dispatch(querySearched(next));
    void dispatch(searchPage(calls, spec, undefined, nextLoad()));
    return null;
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(searchFor(form));
  }

  /**
   * A filter chosen in the dialog or removed by its chip applies at once to the search made (issue
   * 37); before the first search there is nothing to narrow, and the key words wait for Search.
   */
  function setFilters(next: QueryForm) {
    setForm(next);
    if (searched !== null) setProblem(searchFor({ ...next, keyWords: searched.keyWords }));
  }

  function more() {
    const spec = searched === null ? null : querySpec(searched);
    if (spec !== null && typeof spec !== 'string' && state.pageCursor !== null) {
      void dispatch(searchPage(calls, spec, Number(state.pageCursor), nextLoad()));
    }
  }

  return (
    <section id="bookmark-query">
      <h1 className="h4 mb-3">Bookmark search</h1>
      <Form role="search" onSubmit={submit} className="mb-3">
        {/* One row at any width: Bootstrap's input group wraps its buttons under the box otherwise. */}
        <InputGroup className="flex-nowrap">
          <Form.Control
            type="search"
            aria-label="Key words"
            placeholder="Key words"
            value={form.keyWords}
            onChange={(event) => setForm({ ...form, keyWords: event.target.value })}
          />
          <Button type="submit" disabled={busy}>
            Search
          </Button>
          <Button
            variant="outline-secondary"
            aria-label="Advanced Search Configuration"
            title="Advanced Search Configuration"
            onClick={() => setDialog({ opened: true, shown: true })}
            onPointerEnter={() => void loadModal()}
            onFocus={() => void loadModal()}
          >
            <span className="d-sm-none">Advanced</span>
            <span className="d-none d-sm-inline">Advanced Search Configuration</span>
          </Button>
        </InputGroup>
        {problem !== null && <p className="text-danger mt-1 mb-0 validation-message">{problem}</p>}
      </Form>
      <FilterChips form={form} onRemove={setFilters} />
      <BookmarkResults state={state} busy={busy} onMore={more} onState={(id, to) => void dispatch(markBookmark(calls, id, to))} />
      {dialog.opened && (
        <Suspense fallback={null}>
          <QueryConfigModal
            show={dialog.shown}
            onHide={() => setDialog({ opened: true, shown: false })}
            form={form}
            onChange={setFilters}
            hostGroups={state.host_groups}
            tagGroups={state.tag_groups}
          />
        </Suspense>
      )}
    </section>
  );
}
