import { type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { useSelector } from 'react-redux';
import type { BookmarkQuerySpec } from '../../../../contract/bookmarks.ts';
import { useApiClient } from '../../api/api-client-context.ts';
import { useRequest } from '../../lib/use-request.ts';
import { BookmarkResults } from './bookmark-results.tsx';
import { EMPTY_QUERY, type QueryForm, querySpec } from './bookmark-query.ts';
import { cleared, selectBookmarks, useBookmarksDispatch } from './bookmarks.slice.ts';
import { searchPage } from './bookmarks.thunks.ts';

// react-select and the dialog load when the dialog is first opened, not with the page.
const loadModal = () => import('./query-config-modal.tsx');
const QueryConfigModal = lazy(async () => ({ default: (await loadModal()).QueryConfigModal }));

/** Spec §2 Bookmark search. */
export function BookmarkQueryPage() {
  const client = useApiClient();
  const dispatch = useBookmarksDispatch();
  const state = useSelector(selectBookmarks);
  const [form, setForm] = useState<QueryForm>(EMPTY_QUERY);
  // The spec the shown results answer, so that 'Get More' continues them.
  const [searched, setSearched] = useState<BookmarkQuerySpec | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dialog, setDialog] = useState({ opened: false, shown: false });
  const { busy, run } = useRequest();

  useEffect(() => {
    dispatch(cleared());
  }, [dispatch]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const spec = querySpec(form);
    if (typeof spec === 'string') {
      setProblem(spec);
      return;
    }
    setProblem(null);
    setSearched(spec);
    void run((signal) => dispatch(searchPage(client, spec, undefined, signal)));
  }

  function more() {
    if (searched !== null && state.pageCursor !== null) void run((signal) => dispatch(searchPage(client, searched, Number(state.pageCursor), signal)));
  }

  return (
    <section id="bookmark-query">
      <Form role="search" onSubmit={submit} className="mb-3">
        <InputGroup>
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
            onClick={() => setDialog({ opened: true, shown: true })}
            onPointerEnter={() => void loadModal()}
            onFocus={() => void loadModal()}
          >
            Advanced Search Configuration
          </Button>
        </InputGroup>
        {problem !== null && <p className="text-danger mt-1 mb-0 validation-message">{problem}</p>}
      </Form>
      <BookmarkResults state={state} busy={busy} onMore={more} />
      {dialog.opened && (
        <Suspense fallback={null}>
          <QueryConfigModal
            show={dialog.shown}
            onHide={() => setDialog({ opened: true, shown: false })}
            form={form}
            onChange={setForm}
            hostGroups={state.host_groups}
            tagGroups={state.tag_groups}
          />
        </Suspense>
      )}
    </section>
  );
}
