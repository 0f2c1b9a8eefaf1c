import { useEffect, useRef, useState } from 'react';
import type { Book } from '../../../../contract/books.ts';
import { coverPath } from './library-files.api.ts';
import { useObjectUrl } from './use-object-url.ts';
import './book-cover.css';

/**
 * The cover on the book page, as Calibre keeps it; nothing when the book has none on disk
 * (`cover_url`, on the one book's reply). The stored copy of a book, shown before that reply, has
 * no `cover_url` yet: when it has a cover that the server serves (`filesServed`, as the list said),
 * the cover's box is there from the first render, so that the text beside it does not move when
 * the picture comes (a click aimed at its author link would land elsewhere).
 */
export function BookCover({ book, filesServed }: { book: Pick<Book, 'title' | 'cover_url' | 'has_cover'>; filesServed: boolean }) {
  const url = useObjectUrl(book.cover_url ?? null);
  const coming = book.cover_url === undefined && filesServed && book.has_cover;
  if (typeof book.cover_url !== 'string' && !coming) return null;
  return <div className="book-cover-box mb-3">{url !== null && <img className="book-cover rounded" src={url} alt={`Cover of ${book.title}`} />}</div>;
}

/**
 * A card's small cover, fetched when the card scrolls near the screen (an `<img loading=lazy>`
 * cannot send the token). Its box has a fixed size from the start, so the card does not grow when
 * the picture comes. Shown only for a book with a cover, by a server that serves covers.
 */
export function BookThumbnail({ book }: { book: Pick<Book, 'id' | 'title'> }) {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element || near) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setNear(true);
    }, { rootMargin: '200px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  const url = useObjectUrl(near ? coverPath(book.id, 'thumb') : null);
  return (
    <div ref={box} className="book-thumbnail flex-shrink-0 me-2">
      {url !== null && <img src={url} alt={`Cover of ${book.title}`} />}
    </div>
  );
}
