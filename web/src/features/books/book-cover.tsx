import { useEffect, useRef, useState } from 'react';
import type { Book } from '../../../../contract/books.ts';
import { coverPath } from './library-files.api.ts';
import { useObjectUrl } from './use-object-url.ts';
import './book-cover.css';

/** The cover on the book page, as Calibre keeps it; nothing when the book has none on disk (`cover_url`, on the one book's reply). */
export function BookCover({ book }: { book: Pick<Book, 'title' | 'cover_url'> }) {
  const url = useObjectUrl(book.cover_url ?? null);
  if (url === null) return null;
  return <img className="book-cover img-fluid rounded mb-3" src={url} alt={`Cover of ${book.title}`} />;
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
