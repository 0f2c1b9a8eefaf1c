import Alert from 'react-bootstrap/Alert';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { BOOK_FACETS, type BookFacet } from '../../../../contract/books.ts';
import { BackButton } from '../../components/back-button.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { useBrowseFacetQuery } from './books.api.ts';
import { shelfPath } from './book-links.tsx';
import { BrowseLinks, FACET_LABELS } from './results-tools.tsx';

const LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '#'];

const isFacet = (facet: string): facet is BookFacet => (BOOK_FACETS as readonly string[]).includes(facet);

/** Authors, series, tags… A–Z, a letter at a time, each with its count of books (issue 37). */
export function BookFacetPage() {
  const { facet = '' } = useParams();
  if (!isFacet(facet)) return <Navigate to="/book" replace />;
  return <FacetValues facet={facet} />;
}

function FacetValues({ facet }: { facet: BookFacet }) {
  const [params, setParams] = useSearchParams();
  const letter = params.get('letter') ?? '';
  const { data, error, isFetching } = useBrowseFacetQuery({ facet, letter });
  const values = new Map(data?.letters.map(({ letter: first, values: count }) => [first, count]));
  return (
    <section id="book-facet">
      <nav className="d-flex flex-wrap gap-2 mb-3" aria-label="Book navigation">
        <BackButton list="/book" />
        <Link className="btn btn-outline-secondary" to="/">
          Book List
        </Link>
      </nav>
      <h1 className="h4 mb-2">{FACET_LABELS[facet]}</h1>
      <BrowseLinks />
      <nav aria-label="Letters" className="mb-3">
        <ul className="pagination pagination-sm flex-wrap mb-0 facet-letters">
          {LETTERS.map((first) => {
            const count = values.get(first);
            const current = data?.letter === first;
            return (
              <li key={first} className={`page-item${count === undefined ? ' disabled' : ''}${current ? ' active' : ''}`}>
                <button
                  type="button"
                  className="page-link"
                  disabled={count === undefined}
                  aria-current={current ? 'page' : undefined}
                  title={count === undefined ? undefined : `${count} under ${first}`}
                  onClick={() => setParams({ letter: first })}
                >
                  {first}
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
      {error !== undefined && <Alert variant="danger">{'message' in error ? error.message : 'The list could not be loaded'}</Alert>}
      {data === undefined && isFetching && <LoadingSpinner />}
      {data !== undefined && data.entries.length === 0 && <p>{`No ${FACET_LABELS[facet].toLowerCase()} yet`}</p>}
      {data !== undefined && (
        <ul className="list-group facet-values">
          {data.entries.map(({ name, count }) => (
            <li key={name} className="list-group-item d-flex justify-content-between align-items-center">
              <Link to={shelfPath(facet, name)}>{name}</Link>
              <span className="badge text-bg-secondary rounded-pill" aria-label={`${count} books`}>
                {count}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
