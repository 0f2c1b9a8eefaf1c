import 'bootstrap/dist/css/bootstrap.min.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiStore } from './api/api-store.ts';
import { createHttpClient } from './api/http-client.ts';
import { App } from './app/app.tsx';
import { persistState, restoreState, type StateStorage } from './app/persistence.ts';
import { forgetCacheOnSignOut, storeSession } from './app/session.ts';
import { createAppStore } from './app/store.ts';
import { registerNoticeWorker } from './lib/notice-worker.ts';

/** Browsers that block storage (some private modes) throw on the mere access; the app then runs unsaved. */
function localStorageIfAllowed(): StateStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const storage = localStorageIfAllowed();
const store = createAppStore(storage === null ? undefined : restoreState(storage));
if (storage !== null) window.addEventListener('pagehide', persistState(store, storage));
const client = createHttpClient({ session: storeSession(store) });
const apiStore = createApiStore(client);
forgetCacheOnSignOut(store, apiStore);
registerNoticeWorker();

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App store={store} apiStore={apiStore} />
  </StrictMode>,
);
