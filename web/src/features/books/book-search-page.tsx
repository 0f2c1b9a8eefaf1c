import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import { useSelector } from 'react-redux';
import { useApiClient } from '../../api/api-client-context.ts';
import { useRequest } from '../../lib/use-request.ts';
import { selectIsAdmin } from '../auth/auth.slice.ts';
import { BookList } from './book-list.tsx';
import { CatalogueLoadBar } from './catalogue-load-bar.tsx';
import { useCatalogueLoad } from './use-catalogue-load.ts';
import { searchText } from './book-search-settings.ts';
import { booksCleared, selectBookSearch, useBooksDispatch } from './books.slice.ts';
import { loadMoreBooks, searchAgain, searchAnew, searchWithoutField, searchWithoutFormat } from './books.thunks.ts';
import { MagnifierIcon, SlidersIcon } from './icons.tsx';
import { NarrowingChips } from './narrowing-chips.tsx';

// react-select and the modal load when the settings are first opened, not with the page.
const loadSettingsModal = () => import('./advanced-search-modal.tsx');
const AdvancedSearchModal = lazy(async () => ({ default: (await loadSettingsModal()).AdvancedSearchModal }));

export function BookSearchPage() {
  const client = useApiClient();
  const dispatch = useBooksDispatch();
  const search = useSelector(selectBookSearch);
  const admin = useSelector(selectIsAdmin);
  const [settingsShown, setSettingsShown] = useState(false);
  const [settingsOpened, setSettingsOpened] = useState(false);
  // A new search or a clear makes the reply under way moot, so they cancel it.
  const { busy, run, cancel } = useRequest();
  const catalogueLoad = useCatalogueLoad(searchAfterLoad);

  // A visit that finds no search answered (the first, or one after Clear List) lists the newest
  // books, the catalogue by last update, rather than '0 books found'. A search kept from before
  // stays as it was, even one that found nothing.
  const [listedOnArrival] = useState(() => search.narrowing !== null || search.books.length > 0 || search.error !== null);
  const [text, setText] = useState(() => (listedOnArrival ? searchText(search.keys) : ''));
  useEffect(() => {
    if (listedOnArrival) return;
    void run((signal) => dispatch(searchAnew(client, '', signal)));
    return cancel;
  }, [listedOnArrival, run, cancel, dispatch, client]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run((signal) => dispatch(searchAnew(client, text, signal)));
  }

  function clearList() {
    cancel();
    dispatch(booksCleared());
  }

  function openSettings() {
    setSettingsOpened(true);
    setSettingsShown(true);
  }

  const remaining = search.total - search.books.length;
  const loadMore = () => void run((signal) => dispatch(loadMoreBooks(client, signal)));
  function searchAfterLoad() {
    void run((signal) => dispatch(searchAgain(client, signal)));
  }
  const removeFormat = () => void run((signal) => dispatch(searchWithoutFormat(client, signal)));
  const removeField = (field: string) => void run((signal) => dispatch(searchWithoutField(client, field, signal)));

  return (
    <section id="book-search">
      <h1 className="h4 mb-3">Books</h1>
      <CatalogueLoadBar load={catalogueLoad.load} />
      <div className="d-flex flex-wrap gap-2 align-items-start mb-3">
        <Form role="search" onSubmit={submit} className="flex-grow-1">
          <InputGroup>
            <Form.Control
              type="search"
              aria-label="Search books"
              placeholder="Search books"
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
            <Button type="submit" variant="primary" aria-label="Search" title="Search" disabled={busy}>
              <MagnifierIcon />
            </Button>
            <Button
              variant="outline-secondary"
              aria-label="Advanced Search Settings"
              title="Advanced Search Settings"
              onClick={openSettings}
              onPointerEnter={() => void loadSettingsModal()}
              onFocus={() => void loadSettingsModal()}
            >
              <SlidersIcon />
            </Button>
          </InputGroup>
        </Form>
        {search.books.length > 0 && (
          <Button variant="outline-danger" onClick={clearList}>
            Clear List
          </Button>
        )}
      </div>

      {search.error !== null && (
        <p className="text-danger" role="alert">
          {`error occured: ${search.error}`}
        </p>
      )}

      <h2 className="h5">{`${search.total} books found`}</h2>
      {search.narrowing?.keys === '' && search.books.length > 0 && (
        <p className="small text-muted mb-1">Newest books first, by last update</p>
      )}
      <p className="small text-muted mb-2">{`new start: ${search.from}`}</p>
      {search.narrowing !== null && (
        <NarrowingChips narrowing={search.narrowing} onRemoveFormat={removeFormat} onRemoveField={removeField} />
      )}

      <BookList books={search.books} libraryFolder={search.libraryFolder} filesServed={search.filesServed} />

      {busy && (
        <Spinner animation="border" size="sm" role="status" className="d-block mx-auto my-3">
          <span className="visually-hidden">Loading…</span>
        </Spinner>
      )}
      {remaining > 0 && (
        <div className="d-grid my-3">
          <Button variant="outline-primary" onClick={loadMore} disabled={busy}>
            {`${remaining} More`}
          </Button>
        </div>
      )}

      {settingsOpened && (
        <Suspense fallback={null}>
          <AdvancedSearchModal
            show={settingsShown}
            onHide={() => setSettingsShown(false)}
            admin={admin}
            onCatalogueLoaded={searchAfterLoad}
            catalogueLoad={catalogueLoad}
          />
        </Suspense>
      )}
    </section>
  );
}
