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
