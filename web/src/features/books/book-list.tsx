import type { Book } from '../../../../contract/books.ts';
import { BookCard } from './book-card.tsx';

/** The loaded results; each card knows its neighbours, for Previous and Next on the detail page. */
export function BookList({ books, libraryFolder, filesServed }: { books: readonly Book[]; libraryFolder: string; filesServed: boolean }) {
  return (
    <div className="book-list">
      {books.map((book, at) => (
        <BookCard
          key={book.index}
          book={book}
          prev={books[at - 1]?.id ?? null}
          next={books[at + 1]?.id ?? null}
          libraryFolder={libraryFolder}
          filesServed={filesServed}
        />
      ))}
    </div>
  );
}
