import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useSelector } from 'react-redux';
import { Link, Navigate, useParams } from 'react-router';
import { BOOK_FACETS, type BookFacet, type BookResults, type BookSort } from '../../../../contract/books.ts';
import { BackButton } from '../../components/back-button.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { useShelfPageQuery } from './books.api.ts';
import { BookGrid } from './book-grid.tsx';
import { BookList } from './book-list.tsx';
import { selectBookSearch, useBooksDispatch, viewUpdated, withProgress } from './books.slice.ts';
import { FACET_LABELS, ResultsTools } from './results-tools.tsx';
import { useKeptSearchSettings } from './use-kept-search-settings.ts';

const isFacet = (facet: string): facet is BookFacet => (BOOK_FACETS as readonly string[]).includes(facet);

/** What the shelf's heading calls it: "Books by …", "Series: …". */
const SHELF_TITLES: Readonly<Record<BookFacet, (value: string) => string>> = {
  authors: (name) => `Books by ${name}`,
  series: (name) => `Series: ${name}`,
  tags: (name) => `Tag: ${name}`,
  languages: (name) => `Language: ${name}`,
  formats: (name) => `Format: ${name}`,
  publishers: (name) => `Published by ${name}`,
};

/** The books of one author, series, tag, language, format or publisher (issue 37); a series in its own order. */
export function BookShelfPage() {
  const { facet = '', value = '' } = useParams();
  if (!isFacet(facet) || value === '') return <Navigate to="/book" replace />;
  // A shelf of its own for each value: its pages and order start afresh.
  return <Shelf key={`${facet} ${value}`} facet={facet} value={value} />;
}

function Shelf({ facet, value }: { facet: BookFacet; value: string }) {
  const dispatch = useBooksDispatch();
  const { size, view } = useSelector(selectBookSearch);
  useKeptSearchSettings();
  const [sort, setSort] = useState<BookSort>(facet === 'series' ? 'series' : 'title');
  const [pages, setPages] = useState(1);
  const sorts: BookSort[] = [...(facet === 'series' ? (['series'] as const) : []), 'title', 'author', 'newest', 'published', 'rating', 'updated'];
  return (
    <section id="book-shelf">
      <nav className="d-flex flex-wrap gap-2 mb-3" aria-label="Book navigation">
        <BackButton list={`/book/browse/${facet}`} />
        <Link className="btn btn-outline-secondary" to={`/book/browse/${facet}`}>
          {FACET_LABELS[facet]}
        </Link>
      </nav>
      <h1 className="h4 mb-2">{SHELF_TITLES[facet](value)}</h1>
      <ResultsTools
        sort={sort}
        sorts={sorts}
        onSort={(chosen) => {
          setSort(chosen);
          setPages(1);
        }}
        sortFixed={null}
        view={view}
        onView={(chosen) => dispatch(viewUpdated(chosen))}
      />
      {Array.from({ length: pages }, (_, page) => (
        <ShelfPage
          key={page}
          facet={facet}
          value={value}
          sort={sort}
          from={page * size}
          size={size}
          view={view}
          last={page === pages - 1}
          onMore={() => setPages(pages + 1)}
        />
      ))}
    </section>
  );
}

interface ShelfPageProps {
  facet: BookFacet;
  value: string;
  sort: BookSort;
  from: number;
  size: number;
  view: 'list' | 'grid';
  /** The last page shown offers the next. */
  last: boolean;
  onMore(): void;
}

/** One page of a shelf, asked on its own: More adds the next below it. */
function ShelfPage({ facet, value, sort, from, size, view, last, onMore }: ShelfPageProps) {
  const { data, error, isFetching } = useShelfPageQuery({ facet, value, sort, from, size });
  if (error !== undefined) return <Alert variant="danger">{'message' in error ? error.message : 'The books could not be loaded'}</Alert>;
  if (data === undefined) return isFetching ? <LoadingSpinner /> : null;
  const remaining = data.total - from - data.books.length;
  return (
    <>
      {from === 0 && <h2 className="h6 text-muted">{`${data.total} ${data.total === 1 ? 'book' : 'books'}`}</h2>}
      <ShelfBooks results={data} view={view} />
      {last && remaining > 0 && (
        <div className="d-grid my-3">
          <Button variant="outline-primary" onClick={onMore}>
            {`${remaining} More`}
          </Button>
        </div>
      )}
    </>
  );
}

function ShelfBooks({ results, view }: { results: BookResults; view: 'list' | 'grid' }) {
  return view === 'grid' ? (
    <BookGrid books={results.books} filesServed={results.files_served} />
  ) : (
    <BookList books={withProgress(results)} libraryFolder={results.library_folder} filesServed={results.files_served} />
  );
}
