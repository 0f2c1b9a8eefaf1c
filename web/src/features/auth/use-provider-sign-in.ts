import { useEffect, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import type { IdentityProviderId } from '../../../../contract/auth.ts';
import { errorMessage } from '../../api/api-error.ts';
import { openSignInPopup, popupOutcome } from '../../lib/sign-in-popup.ts';
import { useRefreshSessionMutation } from './auth.api.ts';
import { signedIn } from './auth.slice.ts';

/**
 * Sign-in through an identity provider's popup. On success the popup leaves the refresh cookie
 * behind, and the bearer token comes from it as after a reload with an expired token; the user
 * is then signed in exactly as after a local sign-in.
 */
export function useProviderSignIn() {
  const dispatch = useDispatch();
  const [refreshSession] = useRefreshSessionMutation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  async function signIn(provider: IdentityProviderId): Promise<void> {
    const stop = new AbortController();
    running.current = stop;
    setBusy(true);
    setError(null);
    // Leaving the page closes the popup; the outcome it then gives (closed) is shown on a page no longer there, so nowhere.
    const outcome = await popupOutcome(openSignInPopup(`/auth/oidc/${provider}/start`), stop.signal);
    if (!outcome.ok) {
      fail(outcome.message);
      return;
    }
    try {
      // The page turns to its welcome on success, so this component's state is left as it is.
      dispatch(signedIn(await refreshSession().unwrap()));
    } catch (failure) {
      fail(errorMessage(failure));
    }
  }

  function fail(message: string) {
    setError(message);
    setBusy(false);
  }

  return { signIn, busy, error };
}
