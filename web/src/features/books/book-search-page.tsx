import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import { useSelector } from 'react-redux';
import { useApiDispatch, useCallsUnderWay, useSupersedingLoads } from '../../api/api.ts';
import { selectIsAdmin } from '../auth/auth.slice.ts';
import { BOOK_INDEXED_FIELDS, type BookSort } from '../../../../contract/books.ts';
import { BookGrid } from './book-grid.tsx';
import { BookList } from './book-list.tsx';
import { BrowseLinks, ResultsTools } from './results-tools.tsx';
import { useKeptSearchSettings } from './use-kept-search-settings.ts';
import { CatalogueLoadBar } from './catalogue-load-bar.tsx';
import { useCatalogueLoad } from './use-catalogue-load.ts';
import { searchText, splitFields } from './book-search-settings.ts';
import { booksCleared, fieldsUpdated, selectBookSearch, useBooksDispatch, viewUpdated } from './books.slice.ts';
import { loadMoreBooks, searchAgain, searchAnew, searchEverything, searchSorted, searchWithoutField, searchWithoutFormat } from './books.thunks.ts';
import { searchFieldLabel } from './search-fields.ts';
import { MagnifierIcon, SlidersIcon } from './icons.tsx';
import { NarrowingChips } from './narrowing-chips.tsx';
import { ContinueReading } from './continue-reading.tsx';

// react-select and the modal load when the settings are first opened, not with the page.
const loadSettingsModal = () => import('./advanced-search-modal.tsx');
const AdvancedSearchModal = lazy(async () => ({ default: (await loadSettingsModal()).AdvancedSearchModal }));

export function BookSearchPage() {
  const calls = useApiDispatch();
  const dispatch = useBooksDispatch();
  const search = useSelector(selectBookSearch);
  const admin = useSelector(selectIsAdmin);
  const [settingsShown, setSettingsShown] = useState(false);
  const [settingsOpened, setSettingsOpened] = useState(false);
  // A new search or a clear makes the reply under way moot, so they drop it.
  const loads = useSupersedingLoads();
  const underWay = useCallsUnderWay('bookResults');
  const catalogueLoad = useCatalogueLoad(searchAfterLoad);

  // A visit that finds no search answered (the first, or one after Clear List) lists the newest
  // books, the catalogue by last update, rather than '0 books found'. A search kept from before
  // stays as it was, even one that found nothing.
  const [listedOnArrival] = useState(() => search.narrowing !== null || search.books.length > 0 || search.error !== null);
  const [text, setText] = useState(() => (listedOnArrival ? searchText(search.keys) : ''));
  // The account's settings are taken before the first listing, which they order and size.
  const settingsReady = useKeptSearchSettings();
  // A search sent before the settings are in waits for them, and then stands in for the listing of
  // the newest books: that listing, sent later, would otherwise replace the search's answer.
  const [held, setHeld] = useState<string | null>(null);
  const listed = useRef(listedOnArrival);
  // Busy too while the server prepares its search, between its answers, and while a search waits.
  const busy = underWay || search.preparing !== null || held !== null;
  useEffect(() => {
    if (!settingsReady || (listed.current && held === null)) return;
    listed.current = true;
    setHeld(null);
    void dispatch(searchAnew(calls, held ?? '', loads.next()));
  }, [held, settingsReady, loads, dispatch, calls]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!settingsReady) return setHeld(text);
    listed.current = true;
    void dispatch(searchAnew(calls, text, loads.next()));
  }

  function clearList() {
    loads.drop();
    dispatch(booksCleared());
  }

  function openSettings() {
    setSettingsOpened(true);
    setSettingsShown(true);
  }

  const remaining = search.total - search.books.length;
  const loadMore = () => void dispatch(loadMoreBooks(calls, loads.next()));
  function searchAfterLoad() {
    void dispatch(searchAgain(calls, loads.next()));
  }
  const removeFormat = () => void dispatch(searchWithoutFormat(calls, loads.next()));
  const removeField = (field: string) => void dispatch(searchWithoutField(calls, field, loads.next()));
  const sortBy = (sort: BookSort) => void dispatch(searchSorted(calls, sort, loads.next()));
  const chosenFields = splitFields(search.fields);
  const everything = BOOK_INDEXED_FIELDS.every((field) => chosenFields.includes(field));
  // Widening or narrowing the fields searches again only when there are words to look for.
  function widen() {
    if (search.keys === '') dispatch(fieldsUpdated(BOOK_INDEXED_FIELDS));
    else void dispatch(searchEverything(calls, loads.next()));
  }
  function titlesOnly() {
    dispatch(fieldsUpdated(['title']));
    if (search.keys !== '') void dispatch(searchAgain(calls, loads.next()));
  }

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
      <p className="small text-muted mb-2 search-scope" id="search-scope">
        {`Searching: ${everything ? 'everything' : (chosenFields.length === 0 ? ['title'] : chosenFields).map(searchFieldLabel).join(', ')}`}
        {everything ? (
          <Button variant="link" size="sm" className="p-0 ms-2 align-baseline" onClick={titlesOnly} disabled={busy}>
            Titles only
          </Button>
        ) : (
          <Button variant="link" size="sm" className="p-0 ms-2 align-baseline" onClick={widen} disabled={busy}>
            Search everything
          </Button>
        )}
      </p>
      <BrowseLinks />
      <ContinueReading />

      {search.preparing !== null && <p role="status">{`Preparing the search: ${search.preparing} %`}</p>}
      {search.error !== null && (
        <p className="text-danger" role="alert">
          {`error occured: ${search.error}`}
        </p>
      )}

      <h2 className="h5">{`${search.total} books found`}</h2>
      {search.narrowing?.keys === '' && search.books.length > 0 && search.sort === 'updated' && (
        <p className="small text-muted mb-1">Newest books first, by last update</p>
      )}
      <p className="small text-muted mb-2">{`new start: ${search.from}`}</p>
      {search.narrowing !== null && (
        <NarrowingChips narrowing={search.narrowing} onRemoveFormat={removeFormat} onRemoveField={removeField} />
      )}

      <ResultsTools
        sort={search.sort}
        sorts={['updated', 'title', 'author', 'newest', 'published', 'rating']}
        onSort={sortBy}
        sortFixed={search.keys === '' ? null : 'A search with words is ranked: best matches first'}
        view={search.view}
        onView={(view) => dispatch(viewUpdated(view))}
      />
      {search.view === 'grid' ? (
        <BookGrid books={search.books} filesServed={search.filesServed} />
      ) : (
        <BookList books={search.books} libraryFolder={search.libraryFolder} filesServed={search.filesServed} snippets={search.snippets} />
      )}

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
