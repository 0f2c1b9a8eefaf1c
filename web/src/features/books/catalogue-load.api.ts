import { CATALOGUE_LOAD_EVENT, CatalogueLoad } from '../../../../contract/books.ts';
import { followEvents } from '../../api/event-stream.ts';
import type { HttpClient } from '../../api/http-client.ts';

const LOADS_STREAM = { path: '/api/books/index/events', event: CATALOGUE_LOAD_EVENT, schema: CatalogueLoad, name: 'catalogue load' };

/** Every catalogue load's progress as it goes, from whichever page or instance started it, until `signal` aborts. */
export function followCatalogueLoads(client: HttpClient, onLoad: (load: CatalogueLoad) => void, signal: AbortSignal): Promise<void> {
  return followEvents(client, LOADS_STREAM, onLoad, signal);
}

/** Cancels a running load: it rolls back, and the catalogue stays as it was (admins only). */
export function cancelCatalogueLoad(client: HttpClient, id: string): Promise<CatalogueLoad> {
  return client.json(`/api/books/index/${encodeURIComponent(id)}`, CatalogueLoad, { method: 'DELETE' });
}
