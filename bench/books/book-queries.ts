import { random } from './generate-catalogue.ts';
import { typedQueries } from './query-stream.ts';

/**
 * The typed queries (query-stream.ts) over the title alone or title and author, as the book
 * search's field choice has them.
 */
export function bookQueryStream(books: number, count = 300_000): string[] {
  const r = random(7);
  return typedQueries(books, count).map((words) => {
    const fields = r.int(10) < 7 ? 'title' : 'title,author';
    return `/api/books?keys=${encodeURIComponent(words.join(','))}&fields=${fields}&from=0&size=10`;
  });
}
