import type { Book } from '../../../../contract/books.ts';
import { BookCard } from './book-card.tsx';

/** The loaded results; each card knows its neighbours, for Previous and Next on the detail page. */
export function BookList({
  books,
  libraryFolder,
  filesServed,
  snippets = {},
}: {
  books: readonly Book[];
  libraryFolder: string;
  filesServed: boolean;
  /** A few words of the text of each book found by it, by book id. */
  snippets?: Readonly<Record<string, string>>;
}) {
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
          snippet={snippets[book.id]}
        />
      ))}
    </div>
  );
}
