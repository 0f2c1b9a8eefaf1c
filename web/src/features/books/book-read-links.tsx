import { Link } from 'react-router';
import type { Book } from '../../../../contract/books.ts';

/** The formats the web reader opens, the one it prefers first (features/reader). */
const READABLE_FORMATS = ['epub', 'pdf', 'cbz'];

/**
 * "Read" opens the book in the reader: a page load rather than a move within the app, since the
 * reader's page has a CSP of its own (docs/security.md). One link per readable format on disk, the
 * preferred one plainly "Read"; how far the user has read beside it.
 */
export function BookReadLinks({ book }: { book: Book }) {
  const formats = READABLE_FORMATS.filter((format) => (book.files ?? []).some((file) => file.format === format));
  if (formats.length === 0) return null;
  return (
    <div className="mb-2 d-flex flex-wrap align-items-center gap-2 book-read-links">
      {formats.map((format, index) => (
        <Link key={format} reloadDocument className={`btn ${index === 0 ? 'btn-success' : 'btn-outline-success'}`} to={`/book/${encodeURIComponent(book.id)}/read/${format}`}>
          {index === 0 ? 'Read' : `Read ${format.toUpperCase()}`}
        </Link>
      ))}
      {book.progress != null && <span className="text-body-secondary book-progress">{`${Math.round(book.progress * 100)} % read`}</span>}
    </div>
  );
}
