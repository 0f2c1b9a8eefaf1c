import { Book, BookResults, IndexUploadReply } from '../../../../contract/books.ts';
import type { HttpClient } from '../../api/http-client.ts';
import { bookSearchPath, type BookSearchSettings } from './book-search-settings.ts';

export function searchBooks(
  client: HttpClient,
  settings: BookSearchSettings,
  from: number,
  signal?: AbortSignal,
): Promise<BookResults> {
  return client.json(bookSearchPath(settings, from), BookResults, { signal });
}

export function fetchBook(client: HttpClient, id: string, signal?: AbortSignal): Promise<Book> {
  return client.json(`/api/books/${encodeURIComponent(id)}`, Book, { signal });
}

/** Adds and updates books from an index file (`name=update` upserts by id; DESIGN §4 Index file). */
export function uploadIndex(
  client: HttpClient,
  file: File,
  signal?: AbortSignal,
  onUploadProgress?: (sent: number, total: number) => void,
): Promise<IndexUploadReply> {
  const form = new FormData();
  // The server reads the fields in order, so the mode goes before the file.
  form.append('name', 'update');
  form.append('file', file, file.name);
  return client.json('/api/books/index', IndexUploadReply, { method: 'POST', body: form, signal, ...(onUploadProgress ? { onUploadProgress } : {}) });
}
