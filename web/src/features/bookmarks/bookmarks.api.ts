import {
  Bookmark,
  type BookmarkBulkAction,
  BookmarkBulkReply,
  type BookmarkDraft,
  type BookmarkImportProgress,
  BookmarkImportReply,
  BookmarkLookup,
  CurrentBookmarkImport,
  type CutShortBookmarkImport,
  BookmarkPage,
  BookmarkPreview,
  type BookmarkQuerySpec,
  BookmarkSearchResult,
  type BookmarkState,
  type TagCount,
  TagCounts,
} from '../../../../contract/bookmarks.ts';
import { api, type ClientCall, emptyCall, jsonCall } from '../../api/api.ts';
import type { HttpClient } from '../../api/http-client.ts';

export type ListParams = {
  pageSize: number;
  tag?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
  /** Read later: one state's bookmarks (the Unread list); all when absent. */
  state?: BookmarkState | undefined;
};

/** Bookmark gateway (docs/behaviour/bookmarks.md): optional params only when given, the cursor as a header. */
function bookmarkPagePath(params: ListParams): string {
  const query = new URLSearchParams({ pageSize: String(params.pageSize) });
  for (const name of ['tag', 'start_date', 'end_date', 'state'] as const) {
    const value = params[name];
    if (value) query.set(name, value);
  }
  return `/bookmarks/?${query}`;
}

/** The bookmark as the API takes it: without the client's own `indexed`. */
const withoutIndexed = ({ indexed: _indexed, ...body }: Bookmark) => body;

/** The index entry's existence check: any failure means not indexed (docs/behaviour/bookmarks.md). */
const indexEntryCheck =
  (id: number): ClientCall =>
  (client, signal) =>
    client.json(`/api/bookmarks/${id}`, Bookmark, { signal }).then(
      () => true,
      () => false,
    );

/** A browser's bookmarks file to import, and who hears its bytes leave (the progress bar). */
export interface BookmarksFile {
  file: File;
  onProgress: (sent: number, total: number) => void;
}

/** The export handed to the browser to save; fetched with the bearer token, which a plain link cannot send. */
async function saveExport(client: HttpClient, signal: AbortSignal): Promise<void> {
  const response = await client.stream('/bookmarks/export', { signal });
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'bookmarks.html';
  link.click();
  // The click has handed the file to the browser's download by the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export const bookmarksApi = api.injectEndpoints({
  endpoints: (build) => ({
    bookmarkPage: build.query<BookmarkPage, { params: ListParams; cursor: string | null }>({
      query: ({ params, cursor }) => jsonCall(bookmarkPagePath(params), BookmarkPage, cursor === null ? {} : { headers: { pageCursor: cursor } }),
      keepUnusedDataFor: 0,
    }),
    bookmark: build.query<Bookmark, number>({
      query: (id) => jsonCall(`/bookmarks/${id}`, Bookmark),
      keepUnusedDataFor: 0,
    }),
    isIndexed: build.query<boolean, number>({
      query: indexEntryCheck,
      keepUnusedDataFor: 0,
    }),
    searchBookmarks: build.query<BookmarkSearchResult, { spec: BookmarkQuerySpec; from?: number | undefined; size: number }>({
      query: ({ spec, from, size }) => {
        const query = new URLSearchParams({ size: String(size) });
        if (from !== undefined) query.set('from', String(from));
        return jsonCall(`/api/bookmarks/query?${query}`, BookmarkSearchResult, { method: 'POST', body: spec });
      },
      keepUnusedDataFor: 0,
    }),
    createBookmark: build.mutation<Bookmark, BookmarkDraft>({
      query: (draft) => jsonCall('/bookmarks/', Bookmark, { method: 'POST', body: draft }),
    }),
    /** The whole bookmark, one field changed (docs/behaviour/bookmarks.md). */
    updateBookmark: build.mutation<Bookmark, Bookmark>({
      query: (bookmark) => jsonCall(`/bookmarks/${bookmark.id}`, Bookmark, { method: 'PUT', body: withoutIndexed(bookmark) }),
    }),
    /** Read later: unread, read or archived. */
    setBookmarkState: build.mutation<Bookmark, { id: number; state: BookmarkState }>({
      query: ({ id, state }) => jsonCall(`/bookmarks/${id}/state`, Bookmark, { method: 'PUT', body: { state } }),
    }),
    deleteBookmark: build.mutation<null, number>({
      query: (id) => emptyCall(`/bookmarks/${id}`, { method: 'DELETE' }),
    }),
    /** Several bookmarks at once. */
    bulkEdit: build.mutation<BookmarkBulkReply, BookmarkBulkAction>({
      query: (action) => jsonCall('/bookmarks/bulk', BookmarkBulkReply, { method: 'POST', body: action }),
    }),
    indexBookmark: build.mutation<Bookmark, Bookmark>({
      query: (bookmark) => jsonCall('/api/bookmarks/', Bookmark, { method: 'POST', body: withoutIndexed(bookmark) }),
    }),
    tags: build.query<TagCount[], void>({
      query: () => jsonCall('/bookmarks/tags', TagCounts),
    }),
    /** The user's bookmark of the same link (compared after normalising it), or null. */
    lookupBookmark: build.query<BookmarkLookup, string>({
      query: (link) => jsonCall(`/bookmarks/lookup?${new URLSearchParams({ link })}`, BookmarkLookup),
    }),
    /** The page's title and description, read by the server. */
    previewPage: build.mutation<BookmarkPreview, string>({
      query: (link) => jsonCall('/bookmarks/preview', BookmarkPreview, { method: 'POST', body: { link } }),
    }),
    /**
     * The user's latest import that stopped before the end, if any: kept in the cache, so that a
     * return to the list (which keeps its cards) asks the server nothing.
     */
    cutShortImport: build.query<CutShortBookmarkImport | null, void>({
      query: () => jsonCall('/bookmarks/import/progress', CurrentBookmarkImport),
      transformResponse: (reply: CurrentBookmarkImport) => reply.cut_short,
      providesTags: ['CutShortImport'],
    }),
    /** Imports a browser's bookmarks file; whatever its end, the import cut short (if any) is asked again. */
    importBookmarks: build.mutation<BookmarkImportReply, BookmarksFile>({
      query: ({ file, onProgress }) => {
        const form = new FormData();
        form.append('file', file, file.name);
        return jsonCall('/bookmarks/import', BookmarkImportReply, { method: 'POST', body: form, onUploadProgress: onProgress });
      },
      invalidatesTags: ['CutShortImport'],
    }),
    /** The user's import as the server tells it: polled while the server reads the file (issue 18). */
    importProgress: build.query<BookmarkImportProgress | null, void>({
      query: () => jsonCall('/bookmarks/import/progress', CurrentBookmarkImport),
      transformResponse: (reply: CurrentBookmarkImport) => reply.import,
      // Each import starts from no counts, not the last import's.
      keepUnusedDataFor: 0,
    }),
    exportBookmarks: build.mutation<null, void>({
      query: () => saveExport,
    }),
    /** Forgets an import that was cut short; the bookmarks it added stay. */
    dismissCutShortImport: build.mutation<void, string>({
      query: (id) => emptyCall(`/bookmarks/import/cut-short/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      invalidatesTags: ['CutShortImport'],
    }),
  }),
});

export const {
  useTagsQuery,
  useLookupBookmarkQuery,
  usePreviewPageMutation,
  useCutShortImportQuery,
  useDismissCutShortImportMutation,
  useImportBookmarksMutation,
  useImportProgressQuery,
  useExportBookmarksMutation,
} = bookmarksApi;
