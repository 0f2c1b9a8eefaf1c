import { Book } from '../../../../contract/books.ts';

/** A book at `index` of a result, with whatever else a test cares about. */
export function aBook(index: number, fields: Partial<Book> = {}): Book {
  return Book.parse({
    index,
    id: `b${index}`,
    path: `Author ${index}/Book ${index} (${index})/Book ${index}.epub`,
    title: `Book ${index}`,
    author: `Author ${index}`,
    identifier: `isbn:97800000000${index}`,
    publish_date: '2001-02-03',
    publisher: 'Publisher',
    created: '2024-01-01T10:00:00.000Z',
    updated: '2024-02-01T10:00:00.000Z',
    formats: [`Author ${index}/Book ${index} (${index})/Book ${index}.epub`],
    ...fields,
  });
}

/** The books `from` to `from + count - 1`. */
export function someBooks(from: number, count: number): Book[] {
  return Array.from({ length: count }, (_, at) => aBook(from + at));
}
