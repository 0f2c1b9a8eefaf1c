import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { useSelector } from 'react-redux';
import { Link, useLocation, useParams } from 'react-router';
import type { Book } from '../../../../contract/books.ts';
import { useApiDispatch } from '../../api/api.ts';
import { BackButton } from '../../components/back-button.tsx';
import { useBookSlots } from '../../components/book-slots.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { BookCalibreFields } from './book-calibre-fields.tsx';
import { AuthorLinks } from './book-links.tsx';
import { BookComment } from './book-comment.tsx';
import { BookCover } from './book-cover.tsx';
import { BookDownloads } from './book-downloads.tsx';
import { BookReadLinks } from './book-read-links.tsx';
import { bookNeighbours, neighboursInList, type BookNeighbours } from './book-neighbours.ts';
import { selectBookSearch, useBooksDispatch } from './books.slice.ts';
import { SendToDevice } from './send-to-device.tsx';
import { openBook } from './books.thunks.ts';

export function BookDetailPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const calls = useApiDispatch();
  const dispatch = useBooksDispatch();
  const { books, curBook, filesServed } = useSelector(selectBookSearch);
  const [failure, setFailure] = useState<{ id: string; message: string } | null>(null);

  useEffect(() => {
    const leave = new AbortController();
    void dispatch(openBook(calls, id, leave.signal)).then((message) => message !== null && setFailure({ id, message }));
    return () => leave.abort();
  }, [calls, dispatch, id]);

  // The stored book shows at once when it is this one; the fetch above brings it up to date.
  const book = curBook?.id === id ? curBook : null;
  const error = failure?.id === id ? failure.message : null;
  const { prev, next } = bookNeighbours(books, id, location.state);

  return (
    <section id="book-detail">
      <nav className="d-flex flex-wrap gap-2 mb-3" aria-label="Book navigation">
        <BackButton list="/book" />
        <Link className="btn btn-outline-secondary" to="/">
          Book List
        </Link>
        {prev !== null && <NeighbourLink direction="prev" id={prev} current={id} books={books} />}
        {next !== null && <NeighbourLink direction="next" id={next} current={id} books={books} />}
      </nav>
      {book !== null && <BookDetails book={book} filesServed={filesServed} />}
      {book === null && <h1 className="h3">Book</h1>}
      {book === null && error !== null && <Alert variant="danger">{error}</Alert>}
      {book === null && error === null && <LoadingSpinner />}
    </section>
  );
}

const NEIGHBOUR_LABELS = { prev: 'Previous Book', next: 'Next Book' } as const;

interface NeighbourLinkProps {
  direction: keyof typeof NEIGHBOUR_LABELS;
  id: string;
  current: string;
  books: readonly Book[];
}

/** A link to the book before or after, bringing that book's own neighbours along. */
function NeighbourLink({ direction, id, current, books }: NeighbourLinkProps) {
  // Outside the list, the one neighbour known is the book this link leaves.
  const leaving: BookNeighbours = direction === 'prev' ? { prev: null, next: current } : { prev: current, next: null };
  const state = neighboursInList(books, id) ?? leaving;
  return (
    <Link className="btn btn-outline-primary" to={`/book/${encodeURIComponent(id)}`} state={state}>
      {NEIGHBOUR_LABELS[direction]}
    </Link>
  );
}

function BookDetails({ book, filesServed }: { book: Book; filesServed: boolean }) {
  return (
    <article className="d-flex flex-column flex-md-row gap-md-4">
      <div className="flex-shrink-0">
        <BookCover book={book} filesServed={filesServed} />
      </div>
      <div className="flex-grow-1">
        <BookText book={book} />
      </div>
    </article>
  );
}

function BookText({ book }: { book: Book }) {
  const { ShelfMenu } = useBookSlots();
  return (
    <>
      <h1 className="h3">{book.title}</h1>
      {book.author !== '' && (
        <p className="lead mb-2">
          {'by '}
          <AuthorLinks author={book.author} />
        </p>
      )}
      {book.identifier !== '' && <p className="mb-1">{book.identifier}</p>}
      {book.publish_date !== null && <p className="mb-1">{`published at ${book.publish_date}`}</p>}
      {book.publisher !== '' && <p className="mb-1">{`published by ${book.publisher}`}</p>}
      <BookCalibreFields book={book} />
      <BookReadLinks book={book} />
      {ShelfMenu && <ShelfMenu bookId={book.id} title={book.title} inline />}
      <BookDownloads files={book.files ?? []} />
      {(book.files ?? []).length > 0 && <SendToDevice bookId={book.id} />}
      <p className="text-break">
        <em>{book.path}</em>
      </p>
      {book.comment && <BookComment html={book.comment} />}
    </>
  );
}
