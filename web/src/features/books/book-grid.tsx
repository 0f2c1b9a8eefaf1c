import { Link } from 'react-router';
import type { Book } from '../../../../contract/books.ts';
import { BookThumbnail } from './book-cover.tsx';
import type { BookNeighbours } from './book-neighbours.ts';

/**
 * The loaded results as covers in a grid, beside the list (issue 37): each a link to the book with
 * its neighbours, as the list's cards are. A book without a cover served shows its title in the box.
 */
export function BookGrid({ books, filesServed }: { books: readonly Book[]; filesServed: boolean }) {
  return (
    <ul className="book-grid list-unstyled" aria-label="Book covers">
      {books.map((book, at) => {
        const neighbours: BookNeighbours = { prev: books[at - 1]?.id ?? null, next: books[at + 1]?.id ?? null };
        return (
          <li key={book.index} className="book-grid-item" id={String(book.index)}>
            <Link to={`/book/${encodeURIComponent(book.id)}`} state={neighbours} className="text-decoration-none">
              {filesServed && book.has_cover ? (
                <BookThumbnail book={book} />
              ) : (
                <div className="book-thumbnail book-grid-blank border rounded small text-body-secondary">{book.title}</div>
              )}
              <span className="d-block small mt-1 book-grid-title">{book.title}</span>
            </Link>
            {book.author !== '' && <span className="d-block small text-muted text-truncate">{book.author}</span>}
          </li>
        );
      })}
    </ul>
  );
}
