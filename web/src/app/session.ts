import { api } from '../api/api.ts';
import type { ApiStore } from '../api/api-store.ts';
import type { Session } from '../api/http-client.ts';
import { signedIn, signedOut } from '../features/auth/auth.slice.ts';
import type { AppStore } from './store.ts';

/** The API client reads the bearer token from the store and records refreshes and sign-outs there. */
export function storeSession(store: AppStore): Session {
  return {
    token() {
      const { auth } = store.getState();
      return auth.authenticated ? auth.idToken : null;
    },
    signedIn(reply) {
      store.dispatch(signedIn(reply));
    },
    signedOut() {
      store.dispatch(signedOut());
    },
  };
}

/** Signing out forgets the cache too, so the next person at this browser finds nothing of the last one's. */
export function forgetCacheOnSignOut(store: AppStore, apiStore: ApiStore): void {
  let signedIn = store.getState().auth.authenticated;
  store.subscribe(() => {
    const now = store.getState().auth.authenticated;
    if (signedIn && !now) apiStore.dispatch(api.util.resetApiState());
    signedIn = now;
  });
}
