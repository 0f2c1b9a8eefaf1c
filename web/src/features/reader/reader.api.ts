import { Book } from '../../../../contract/books.ts';
import { ReadingPosition, ReadingPositionReply, type ReadingPositionBody } from '../../../../contract/reading.ts';
import { api, jsonCall } from '../../api/api.ts';
import type { HttpClient } from '../../api/http-client.ts';

const positionPath = (bookId: string) => `/api/books/${encodeURIComponent(bookId)}/position`;

/** A span of a book's file, as a Range request answers it, with the file's whole length. */
export interface FileRange {
  bytes: Uint8Array<ArrayBuffer>;
  /** The file's length in bytes, from the reply's Content-Range (or its length, for a 200). */
  length: number;
}

const CONTENT_RANGE_LENGTH = /\/(\d+)\s*$/;

/** `bytes=begin-(end-1)` through the HTTP client, so that the bearer token and its refresh are the app's. */
async function readRange(client: HttpClient, path: string, begin: number, end: number, signal: AbortSignal): Promise<FileRange> {
  const response = await client.stream(path, { signal, headers: { range: `bytes=${begin}-${end - 1}` } });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const total = CONTENT_RANGE_LENGTH.exec(response.headers.get('content-range') ?? '')?.[1];
  return { bytes, length: total === undefined ? bytes.length : Number(total) };
}

/**
 * The reader's calls (issue 38): where the user is in a book, and the book's file, whole (an EPUB
 * or a comic, read as a zip) or by ranges (a PDF, whose pages are read as they are shown).
 */
export const readerApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The book being read: its title and the formats on disk. */
    readerBook: build.query<Book, string>({
      query: (bookId) => jsonCall(`/api/books/${encodeURIComponent(bookId)}`, Book),
      keepUnusedDataFor: 0,
    }),
    readingPosition: build.query<ReadingPosition | null, string>({
      query: (bookId) => jsonCall(positionPath(bookId), ReadingPositionReply),
      keepUnusedDataFor: 0,
    }),
    /** `keepalive` as the tab closes: the request outlives the page and still carries the bearer header. */
    saveReadingPosition: build.mutation<ReadingPosition, { bookId: string; position: ReadingPositionBody; keepalive?: boolean }>({
      query: ({ bookId, position, keepalive }) => jsonCall(positionPath(bookId), ReadingPosition, { method: 'PUT', body: position, keepalive }),
    }),
    bookFile: build.mutation<Blob, string>({
      query: (path) => async (client, signal) => (await client.stream(path, { signal })).blob(),
    }),
    fileRange: build.mutation<FileRange, { path: string; begin: number; end: number }>({
      query: ({ path, begin, end }) => (client, signal) => readRange(client, path, begin, end, signal),
    }),
  }),
});

export const { useReaderBookQuery, useReadingPositionQuery } = readerApi;
