import { Fragment } from 'react';
import { Link } from 'react-router';
import type { Book, BookFacet } from '../../../../contract/books.ts';

/** The page of the books of one author, series, tag…: `/book/browse/{facet}/{value}`. */
export const shelfPath = (facet: BookFacet, value: string) => `/book/browse/${facet}/${encodeURIComponent(value)}`;

/** Authors as Calibre joins them (' & '), each a link to their books; the text reads as it did. */
export function AuthorLinks({ author }: { author: string }) {
  const authors = author.split(' & ').filter((name) => name.trim() !== '');
  return (
    <>
      {authors.map((name, at) => (
        <Fragment key={name}>
          {at > 0 && ' & '}
          <Link to={shelfPath('authors', name.trim())} className="book-author-link">
            {name}
          </Link>
        </Fragment>
      ))}
    </>
  );
}

/** "The Science of Discworld [1]", as Calibre writes a series with the book's place in it. */
export const seriesLabel = (book: Pick<Book, 'series' | 'series_index'>): string | null =>
  book.series === null ? null : book.series_index === null ? book.series : `${book.series} [${book.series_index}]`;

/** The series with the book's place in it, a link to the series in its order. */
export function SeriesLink({ book }: { book: Pick<Book, 'series' | 'series_index'> }) {
  const label = seriesLabel(book);
  if (label === null || book.series === null) return null;
  return (
    <Link to={shelfPath('series', book.series)} className="book-series">
      {label}
    </Link>
  );
}

/** Tags as small badges, each a link to the books with it: for the card and the detail page. */
export function BookTags({ tags }: { tags: readonly string[] }) {
  return (
    <span className="book-tags">
      {tags.map((tag) => (
        <Link key={tag} to={shelfPath('tags', tag)} className="badge rounded-pill text-bg-light border me-1 text-decoration-none">
          {tag}
        </Link>
      ))}
    </span>
  );
}
