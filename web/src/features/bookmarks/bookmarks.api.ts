import {
  Bookmark,
  type BookmarkBulkAction,
  BookmarkBulkReply,
  type BookmarkDraft,
  type BookmarkImportProgress,
  BookmarkImportReply,
  BookmarkLookup,
  CurrentBookmarkImport,
  BookmarkPage,
  BookmarkPreview,
  type BookmarkQuerySpec,
  BookmarkSearchResult,
  TagCounts,
} from '../../../../contract/bookmarks.ts';
import type { HttpClient } from '../../api/http-client.ts';

export type ListParams = { pageSize: number; tag?: string | undefined; start_date?: string | undefined; end_date?: string | undefined };

/** Spec §7 Bookmark gateway: optional params only when given, the cursor as a header. */
export function fetchBookmarkPage(client: HttpClient, params: ListParams, cursor?: string, signal?: AbortSignal): Promise<BookmarkPage> {
  const query = new URLSearchParams({ pageSize: String(params.pageSize) });
  for (const name of ['tag', 'start_date', 'end_date'] as const) {
    const value = params[name];
    if (value) query.set(name, value);
  }
  return client.json(`/bookmarks/?${query}`, BookmarkPage, { signal, ...(cursor === undefined ? {} : { headers: { pageCursor: cursor } }) });
}

export const fetchBookmark = (client: HttpClient, id: number, signal?: AbortSignal) => client.json(`/bookmarks/${id}`, Bookmark, { signal });

export const createBookmark = (client: HttpClient, draft: BookmarkDraft) =>
  client.json('/bookmarks/', Bookmark, { method: 'POST', body: draft });

/** The whole bookmark, one field changed (spec §7). */
export function updateBookmark(client: HttpClient, bookmark: Bookmark): Promise<Bookmark> {
  const { indexed: _indexed, ...body } = bookmark;
  return client.json(`/bookmarks/${bookmark.id}`, Bookmark, { method: 'PUT', body });
}

export const deleteBookmark = (client: HttpClient, id: number) => client.empty(`/bookmarks/${id}`, { method: 'DELETE' });

/** Several bookmarks at once; how many changed. */
export async function bulkEdit(client: HttpClient, action: BookmarkBulkAction): Promise<number> {
  return (await client.json('/bookmarks/bulk', BookmarkBulkReply, { method: 'POST', body: action })).count;
}

export const fetchTags = (client: HttpClient, signal?: AbortSignal) => client.json('/bookmarks/tags', TagCounts, { signal });

/** The index entry's existence check: any failure means not indexed (spec §7). */
export async function isIndexed(client: HttpClient, id: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await client.json(`/api/bookmarks/${id}`, Bookmark, { signal });
    return true;
  } catch {
    return false;
  }
}

export function indexBookmark(client: HttpClient, bookmark: Bookmark): Promise<Bookmark> {
  const { indexed: _indexed, ...body } = bookmark;
  return client.json('/api/bookmarks/', Bookmark, { method: 'POST', body });
}

export function searchBookmarks(
  client: HttpClient,
  spec: BookmarkQuerySpec,
  page: { from?: number; size: number },
  signal?: AbortSignal,
): Promise<BookmarkSearchResult> {
  const query = new URLSearchParams({ size: String(page.size) });
  if (page.from !== undefined) query.set('from', String(page.from));
  return client.json(`/api/bookmarks/query?${query}`, BookmarkSearchResult, { method: 'POST', body: spec, signal });
}

export function importBookmarks(
  client: HttpClient,
  file: File,
  onUploadProgress?: (sent: number, total: number) => void,
): Promise<BookmarkImportReply> {
  const form = new FormData();
  form.append('file', file, file.name);
  return client.json('/bookmarks/import', BookmarkImportReply, { method: 'POST', body: form, ...(onUploadProgress ? { onUploadProgress } : {}) });
}

/** The user's import as the server tells it: polled while the server reads the file (issue 18). */
export async function bookmarkImportProgress(client: HttpClient, signal?: AbortSignal): Promise<BookmarkImportProgress | null> {
  return (await client.json('/bookmarks/import/progress', CurrentBookmarkImport, { signal })).import;
}

/** The export as a file the browser saves; fetched with the bearer token, which a plain link cannot send. */
export async function exportBookmarks(client: HttpClient): Promise<Blob> {
  const response = await client.stream('/bookmarks/export');
  return response.blob();
}


/** The user's bookmark of the same link (compared after normalising it), or null. */
export async function lookupBookmark(client: HttpClient, link: string, signal?: AbortSignal): Promise<Bookmark | null> {
  return (await client.json(`/bookmarks/lookup?${new URLSearchParams({ link })}`, BookmarkLookup, { signal })).bookmark;
}

/** The page's title and description, read by the server. */
export const previewPage = (client: HttpClient, link: string, signal?: AbortSignal) =>
  client.json('/bookmarks/preview', BookmarkPreview, { method: 'POST', body: { link }, signal });
