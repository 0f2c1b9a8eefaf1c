import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { BOOK_FACETS, type BookFacet, type BookSort } from '../../../../contract/books.ts';

export const SORT_LABELS: Readonly<Record<BookSort, string>> = {
  updated: 'Last updated',
  title: 'Title',
  author: 'Author',
  newest: 'Newest',
  published: 'Published',
  rating: 'Rating',
  series: 'Series order',
};

export const FACET_LABELS: Readonly<Record<BookFacet, string>> = {
  authors: 'Authors',
  series: 'Series',
  tags: 'Tags',
  languages: 'Languages',
  formats: 'Formats',
  publishers: 'Publishers',
};

export type BookView = 'list' | 'grid';

interface ResultsToolsProps {
  sort: BookSort;
  sorts: readonly BookSort[];
  onSort(sort: BookSort): void;
  /** Why the order cannot be chosen now (a search with words is ranked), or null. */
  sortFixed: string | null;
  view: BookView;
  onView(view: BookView): void;
}

/** The order of a listing and the list or the cover grid, above the results. */
export function ResultsTools({ sort, sorts, onSort, sortFixed, view, onView }: ResultsToolsProps) {
  return (
    <div className="d-flex flex-wrap gap-2 align-items-center mb-2 results-tools">
      <Form.Group controlId="book-sort" className="d-flex align-items-center gap-2">
        <Form.Label className="small mb-0">Sort by</Form.Label>
        <Form.Select
          size="sm"
          value={sortFixed === null ? sort : ''}
          disabled={sortFixed !== null}
          title={sortFixed ?? undefined}
          onChange={(event) => onSort(event.target.value as BookSort)}
          className="w-auto"
        >
          {sortFixed !== null && <option value="">Best match</option>}
          {sorts.map((value) => (
            <option key={value} value={value}>
              {SORT_LABELS[value]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <ButtonGroup size="sm" aria-label="Show books as">
        <Button variant={view === 'list' ? 'secondary' : 'outline-secondary'} aria-pressed={view === 'list'} onClick={() => onView('list')}>
          List
        </Button>
        <Button variant={view === 'grid' ? 'secondary' : 'outline-secondary'} aria-pressed={view === 'grid'} onClick={() => onView('grid')}>
          Covers
        </Button>
      </ButtonGroup>
    </div>
  );
}

/** Links to the pages that browse the catalogue without a word. */
export function BrowseLinks() {
  return (
    <nav aria-label="Browse books" className="small mb-3 d-flex flex-wrap column-gap-3 browse-links">
      <span className="text-muted">Browse:</span>
      {BOOK_FACETS.map((facet) => (
        <Link key={facet} to={`/book/browse/${facet}`}>
          {FACET_LABELS[facet]}
        </Link>
      ))}
    </nav>
  );
}
