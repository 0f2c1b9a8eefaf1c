import { ArchiveSummaries, BookmarkArchive } from '../../../../contract/bookmark-archives.ts';
import { api, type ClientCall, jsonCall } from '../../api/api.ts';

/** The server lists the copies of at most 100 bookmarks a request. */
const IDS_PER_REQUEST = 100;

/** The kept copies of the cards shown, 100 bookmarks a request, by bookmark id. */
const summariesCall =
  (ids: readonly number[]): ClientCall =>
  async (client, signal) => {
    const copies: BookmarkArchive[] = [];
    for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
      const chunk = ids.slice(start, start + IDS_PER_REQUEST).join(',');
      copies.push(...(await client.json(`/bookmarks/archives?ids=${chunk}`, ArchiveSummaries, { signal })).archives);
    }
    return copies;
  };

/** The kept copy as a document: its HTML is only ever shown inside the reader's sandboxed frame. */
const readerCall =
  (id: number): ClientCall =>
  async (client, signal) =>
    (await client.stream(`/bookmarks/${id}/archive/reader`, { signal })).text();

/** A page the browser has (a SingleFile capture, or the page the bookmarklet was run on), sent as the bookmark's copy. */
export interface CapturedPage {
  id: number;
  html: Blob;
}

export const bookmarkArchiveApi = api.injectEndpoints({
  endpoints: (build) => ({
    archiveSummaries: build.query<BookmarkArchive[], readonly number[]>({
      query: summariesCall,
    }),
    archive: build.query<BookmarkArchive, number>({
      query: (id) => jsonCall(`/bookmarks/${id}/archive`, BookmarkArchive),
      keepUnusedDataFor: 0,
    }),
    readerPage: build.query<string, number>({
      query: readerCall,
      keepUnusedDataFor: 0,
    }),
    /** "Keep a copy" and "Retry": the server answers at once, and fetches the page in the background. */
    keepCopy: build.mutation<BookmarkArchive, number>({
      query: (id) => jsonCall(`/bookmarks/${id}/archive`, BookmarkArchive, { method: 'POST' }),
    }),
    uploadPage: build.mutation<BookmarkArchive, CapturedPage>({
      query: ({ id, html }) => {
        const form = new FormData();
        form.append('file', html, 'page.html');
        return jsonCall(`/bookmarks/${id}/archive/upload`, BookmarkArchive, { method: 'POST', body: form });
      },
    }),
  }),
});

export const { useArchiveSummariesQuery, useArchiveQuery, useReaderPageQuery, useKeepCopyMutation, useUploadPageMutation } = bookmarkArchiveApi;
