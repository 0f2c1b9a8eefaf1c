import { type ComponentType, lazy, memo, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { Book } from '../../../../contract/books.ts';
import { AuthorLinks, BookTags, SeriesLink, seriesLabel } from './book-links.tsx';
import { BookThumbnail } from './book-cover.tsx';
import { BookSnippet } from './book-snippet.tsx';
import type { BookNeighbours } from './book-neighbours.ts';
import { pathBelowLibrary } from './library-path.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { type ShelfMenuProps, useBookSlots } from '../../components/book-slots.tsx';

const CommentPreviewText = lazy(async () => ({ default: (await import('./comment-preview-text.tsx')).CommentPreviewText }));

interface BookCardProps {
  book: Book;
  /** The ids of the books before and after this one in the list, for the detail page's Previous and Next. */
  prev: string | null;
  next: string | null;
  /** The catalogue's library folder: the card shows the path below it, the tooltip the whole path. */
  libraryFolder: string;
  /** Whether the server serves covers: the card then shows the book's thumbnail. */
  filesServed: boolean;
  /** A few words of the book's text around the words searched, when the search found it by its text. */
  snippet?: string | undefined;
}

/**
 * One search result (docs/behaviour/books.md). Plain Bootstrap markup rather than react-bootstrap's Card:
 * a hundred cards must render within 50 ms (docs/budgets.md), and each component layer costs.
 */
export const BookCard = memo(function BookCard({ book, prev, next, libraryFolder, filesServed, snippet }: BookCardProps) {
  const neighbours: BookNeighbours = { prev, next };
  const series = seriesLabel(book);
  const { ShelfMenu } = useBookSlots();
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
          </h3>
          {book.author !== '' && (
            <div className="small text-muted book-card-author">
              {'by '}
              <AuthorLinks author={book.author} />
            </div>
          )}
          <div className="text-break small">
            <em title={book.path}>{pathBelowLibrary(book.path, libraryFolder)}</em>
          </div>
          {book.publisher !== '' && <div className="small">{book.publisher}</div>}
          {(series !== null || book.tags.length > 0) && (
            <div className="small book-card-labels">
              {series !== null && (
                <span className="me-2">
                  <SeriesLink book={book} />
                </span>
              )}
              <BookTags tags={book.tags} />
            </div>
          )}
          <div className="small text-muted d-flex flex-wrap align-items-center gap-2">
            <span>{`created ${formatDateTime(book.created)} · updated ${formatDateTime(book.updated)}`}</span>
            {book.progress != null && <span className="book-progress">{`${Math.round(book.progress * 100)} % read`}</span>}
            {ShelfMenu && <CardShelves ShelfMenu={ShelfMenu} bookId={book.id} title={book.title} />}
          </div>
          {snippet !== undefined && <BookSnippet snippet={snippet} />}
          {book.comment ? (
            <Suspense fallback={null}>
              <CommentPreviewText comment={book.comment} />
            </Suspense>
          ) : null}
        </div>
      </div>
    </article>
  );
});

/**
 * The card's Shelves button: the menu's code and its call load at the first click, so that a page
 * of cards loads and renders nothing of the shelves (the first page's budget, docs/budgets.md).
 */
function CardShelves({ ShelfMenu, bookId, title }: { ShelfMenu: ComponentType<ShelfMenuProps>; bookId: string; title: string }) {
  const [wanted, setWanted] = useState(false);
  if (wanted) return <ShelfMenu bookId={bookId} title={title} opened />;
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline-secondary dropdown-toggle py-0"
      aria-expanded={false}
      aria-label={`Shelves of ${title}`}
      onClick={() => setWanted(true)}
    >
      Shelves
    </button>
  );
}
