import { Link } from 'react-router';
import { useContinueReadingQuery } from './books.api.ts';

/** How many books "Continue reading" shows: a row, not a second list. */
const SHOWN = 4;

/**
 * "Continue reading" on the books page (issue 38): the user's books with a position, the newest
 * first, each a link to its page with how far it is read; nothing while there are none (or the
 * call failed: the search below is what the page is for).
 */
export function ContinueReading() {
  const { data } = useContinueReadingQuery(SHOWN);
  if (data === undefined || data.entries.length === 0) return null;
  return (
    <section className="mb-3 continue-reading" aria-labelledby="continue-reading-title">
      <h2 className="h6 mb-1" id="continue-reading-title">
        Continue reading
      </h2>
      <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0">
        {data.entries.map(({ book, position }) => (
          <li key={book.id} className="border rounded px-2 py-1 small">
            <Link to={`/book/${encodeURIComponent(book.id)}`}>{book.title}</Link>
            <span className="text-muted">{` · ${Math.round(position.percentage * 100)} %`}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
