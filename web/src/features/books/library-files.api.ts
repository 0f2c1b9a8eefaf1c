import { parse as parseContentDisposition } from 'content-disposition';
import type { BookFile } from '../../../../contract/books.ts';
import type { HttpClient } from '../../api/http-client.ts';

/**
 * Covers and files need the bearer token, which an `<img src>` or a link cannot send: they are
 * fetched through the client (which also refreshes an expired token) and shown or saved from a
 * `blob:` URL. The caller revokes the URL when it is done with it.
 */
export async function fetchObjectUrl(client: HttpClient, path: string, signal?: AbortSignal): Promise<{ url: string; response: Response }> {
  const response = await client.stream(path, { signal });
  return { url: URL.createObjectURL(await response.blob()), response };
}

export const coverPath = (bookId: string, size: 'thumb' | 'full') => `/api/books/${encodeURIComponent(bookId)}/cover?size=${size}`;

/** The name the server gives the download (`Title - Author.epub`), else the format alone. */
function savedName(response: Response, file: BookFile): string {
  const header = response.headers.get('content-disposition');
  try {
    return (header && parseContentDisposition(header).parameters.filename) || `book.${file.format}`;
  } catch {
    return `book.${file.format}`;
  }
}

/** Fetches one format of a book and hands it to the browser to save. */
export async function downloadBookFile(client: HttpClient, file: BookFile): Promise<void> {
  const { url, response } = await fetchObjectUrl(client, file.url);
  const link = document.createElement('a');
  link.href = url;
  link.download = savedName(response, file);
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has begun the download from the URL by the time the click returns; a minute is ample.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
