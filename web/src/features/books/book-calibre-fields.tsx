import type { ReactNode } from 'react';
import type { Book } from '../../../../contract/books.ts';
import { BookTags, SeriesLink, seriesLabel } from './book-links.tsx';

/** Stars out of five, halves as ½: what Calibre shows for a rating. */
export function ratingStars(rating: number): string {
  const whole = Math.floor(rating);
  const half = rating - whole >= 0.5;
  return `${'★'.repeat(whole)}${half ? '½' : ''}${'☆'.repeat(5 - whole - (half ? 1 : 0))}`;
}

/**
 * What Calibre has beyond the book's first fields, on the detail page: series, tags,
 * languages, rating and the identifiers besides the one shown, each row only when the book has it.
 */
export function BookCalibreFields({ book }: { book: Book }) {
  const series = seriesLabel(book);
  // The chosen one is the identifier line above; the rest are listed here.
  const identifiers = Object.entries(book.identifiers).filter(([type, value]) => `${type}:${value}` !== book.identifier);
  if (series === null && book.tags.length === 0 && book.languages.length === 0 && book.rating === null && identifiers.length === 0) {
    return null;
  }
  return (
    <dl className="row mb-2 book-calibre-fields">
      {series !== null && (
        <Field name="Series">
          <SeriesLink book={book} />
        </Field>
      )}
      {book.tags.length > 0 && (
        <Field name="Tags">
          <BookTags tags={book.tags} />
        </Field>
      )}
      {book.languages.length > 0 && <Field name="Languages">{book.languages.join(', ')}</Field>}
      {book.rating !== null && (
        <Field name="Rating">
          <span aria-label={`${book.rating} of 5 stars`}>{ratingStars(book.rating)}</span>
        </Field>
      )}
      {identifiers.length > 0 && (
        <Field name="Other identifiers">
          <ul className="list-unstyled mb-0">
            {identifiers.map(([type, value]) => (
              <li key={type}>{`${type}:${value}`}</li>
            ))}
          </ul>
        </Field>
      )}
    </dl>
  );
}

function Field({ name, children }: { name: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-sm-2 fw-normal text-muted">{name}</dt>
      <dd className="col-sm-10 mb-1">{children}</dd>
    </>
  );
}
