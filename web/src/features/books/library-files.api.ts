import { parse as parseContentDisposition } from 'content-disposition';
import type { BookFile } from '../../../../contract/books.ts';
import { api } from '../../api/api.ts';
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

export const libraryFilesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * A `blob:` URL of what the API answers at the path; null when it has nothing (a 404: the file
     * is not on disk), so that the caller shows nothing rather than a broken image. The URL is
     * revoked when the cache lets the entry go.
     */
    objectUrl: build.query<string | null, string>({
      query: (path) => (client, signal) => fetchObjectUrl(client, path, signal).then(({ url }) => url, () => null),
      keepUnusedDataFor: 0,
      async onCacheEntryAdded(_path, { cacheDataLoaded, cacheEntryRemoved }) {
        const loaded = await cacheDataLoaded.catch(() => null);
        await cacheEntryRemoved;
        if (loaded?.data) URL.revokeObjectURL(loaded.data);
      },
    }),
    /** Fetches one format of a book and hands it to the browser to save. */
    downloadBookFile: build.mutation<null, BookFile>({
      query: (file) => (client) => downloadBookFile(client, file),
    }),
  }),
});

export const { useObjectUrlQuery, useDownloadBookFileMutation } = libraryFilesApi;
