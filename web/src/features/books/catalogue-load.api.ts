import { CATALOGUE_LOAD_EVENT, CatalogueLoad, IndexUploadReply } from '../../../../contract/books.ts';
import { api, type ApiExtra, jsonCall } from '../../api/api.ts';
import { followEvents } from '../../api/event-stream.ts';
import { type ReadingStart, timeLeftMs } from './catalogue-load-text.ts';

const LOADS_STREAM = { path: '/api/books/index/events', event: CATALOGUE_LOAD_EVENT, schema: CatalogueLoad, name: 'catalogue load' };

export interface CatalogueLoadState {
  /** The running load, else the last one; null before the stream has told any. */
  load: CatalogueLoad | null;
  /** When this page first saw the load reading: the rate the time left comes from. */
  readingStart: ReadingStart | null;
  /** At that rate, once steady; else null. */
  timeLeftMs: number | null;
}

const NO_LOAD_SEEN: CatalogueLoadState = { load: null, readingStart: null, timeLeftMs: null };

/** The state after `load` was heard at `now`: a load keeps the reading start it was first seen reading at. */
function heard(before: CatalogueLoadState, load: CatalogueLoad, now: number): CatalogueLoadState {
  const readingStart =
    load.phase !== 'reading'
      ? null
      : before.readingStart !== null && before.load?.id === load.id
        ? before.readingStart
        : { at: now, read: load.read };
  return { load, readingStart, timeLeftMs: timeLeftMs(load, readingStart, now) };
}

/** An index file to upload, and who hears its bytes leave (the progress bar). */
export interface IndexUpload {
  file: File;
  onProgress: (sent: number, total: number) => void;
}

export const catalogueLoadApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Every catalogue load's progress as it goes, from whichever page or instance started it: the
     * entry starts empty and the server's stream fills it for as long as a screen follows it.
     */
    catalogueLoads: build.query<CatalogueLoadState, void>({
      queryFn: () => ({ data: NO_LOAD_SEEN }),
      // The stream stays open only while a screen follows the loads, and a new screen starts afresh.
      keepUnusedDataFor: 0,
      async onCacheEntryAdded(_arg, { cacheDataLoaded, cacheEntryRemoved, updateCachedData, extra }) {
        await cacheDataLoaded;
        const stop = new AbortController();
        void followEvents((extra as ApiExtra).client, LOADS_STREAM, (load) => updateCachedData((before) => heard(before, load, Date.now())), stop.signal);
        await cacheEntryRemoved;
        stop.abort();
      },
    }),
    /** Cancels a running load: it rolls back, and the catalogue stays as it was (admins only). */
    cancelCatalogueLoad: build.mutation<CatalogueLoad, string>({
      query: (id) => jsonCall(`/api/books/index/${encodeURIComponent(id)}`, CatalogueLoad, { method: 'DELETE' }),
    }),
    /** Adds and updates books from an index file (`name=update` upserts by id; docs/behaviour/books.md). */
    uploadIndex: build.mutation<IndexUploadReply, IndexUpload>({
      query: ({ file, onProgress }) => {
        const form = new FormData();
        // The server reads the fields in order, so the mode goes before the file.
        form.append('name', 'update');
        form.append('file', file, file.name);
        return jsonCall('/api/books/index', IndexUploadReply, { method: 'POST', body: form, onUploadProgress: onProgress });
      },
    }),
  }),
});

export const { useCatalogueLoadsQuery, useCancelCatalogueLoadMutation, useUploadIndexMutation } = catalogueLoadApi;
