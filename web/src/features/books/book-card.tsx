import { memo } from 'react';
import { Link } from 'react-router';
import type { Book } from '../../../../contract/books.ts';
import { BookTags, seriesLabel } from './book-calibre-fields.tsx';
import { BookThumbnail } from './book-cover.tsx';
import type { BookNeighbours } from './book-neighbours.ts';
import { commentPreview } from './comment-preview.ts';
import { pathBelowLibrary } from './library-path.ts';
import { formatDateTime } from '../../lib/format-date.ts';

interface BookCardProps {
  book: Book;
  /** The ids of the books before and after this one in the list, for the detail page's Previous and Next. */
  prev: string | null;
  next: string | null;
  /** The catalogue's library folder: the card shows the path below it, the tooltip the whole path. */
  libraryFolder: string;
  /** Whether the server serves covers: the card then shows the book's thumbnail. */
  filesServed: boolean;
}

/**
 * One search result (spec §2 Book card). Plain Bootstrap markup rather than react-bootstrap's Card:
 * a hundred cards must render within 50 ms (DESIGN §6), and each component layer costs.
 */
export const BookCard = memo(function BookCard({ book, prev, next, libraryFolder, filesServed }: BookCardProps) {
  const preview = commentPreview(book.comment);
  const neighbours: BookNeighbours = { prev, next };
  const series = seriesLabel(book);
  return (
    <article className="card mb-2 book-card" id={String(book.index)}>
      <div className="card-body py-2 d-flex">
        {filesServed && book.has_cover && <BookThumbnail book={book} />}
        <div className="flex-grow-1 book-card-text">
          <h3 className="h6 card-title mb-1">
            <span className="badge text-bg-secondary me-2 book-index">{book.index}</span>
            <Link to={`/book/${encodeURIComponent(book.id)}`} state={neighbours}>
              {book.title}
            </Link>
            {book.author !== '' && <span className="text-muted fw-normal">{` by ${book.author}`}</span>}
          </h3>
          <div className="text-break small">
            <em title={book.path}>{pathBelowLibrary(book.path, libraryFolder)}</em>
          </div>
          {book.publisher !== '' && <div className="small">{book.publisher}</div>}
          {(series !== null || book.tags.length > 0) && (
            <div className="small book-card-labels">
              {series !== null && <span className="me-2 book-series">{series}</span>}
              <BookTags tags={book.tags} />
            </div>
          )}
          <div className="small text-muted">
            {`created ${formatDateTime(book.created)} · updated ${formatDateTime(book.updated)}`}
          </div>
          {preview !== '' && <p className="small mb-0 mt-1 book-comment-preview">{preview}</p>}
        </div>
      </div>
    </article>
  );
});
