import { type IdentityProviderId, SignInResult } from '../../../../contract/auth.ts';

export type PopupOutcome = { ok: true } | { ok: false; message: string };

export const POPUP_BLOCKED = 'The sign-in window was blocked: allow pop-ups for this site, then try again.';
export const POPUP_CLOSED = 'The sign-in window was closed before the sign-in finished.';

const POPUP_NAME = 'organiser-sign-in';
const POPUP_FEATURES = 'popup,width=500,height=650';
const CLOSED_POLL_MS = 250;

/**
 * Runs the provider's sign-in in a popup. Settles with what the popup's last page posts (from
 * this origin, by that popup), or with a failure when the popup cannot open or is closed first.
 * The server has set the refresh cookie by the time success arrives.
 */
export function signInThroughPopup(provider: IdentityProviderId, signal: AbortSignal): Promise<PopupOutcome> {
  const popup = window.open(`/auth/oidc/${provider}/start`, POPUP_NAME, POPUP_FEATURES);
  if (popup === null) return Promise.resolve({ ok: false, message: POPUP_BLOCKED });
  popup.focus();

  return new Promise((resolve) => {
    let closedPolls = 0;

    function onMessage(event: MessageEvent) {
      if (event.origin !== window.location.origin || event.source !== popup) return;
      const result = SignInResult.safeParse(event.data);
      if (!result.success) return;
      settle(result.data.ok ? { ok: true } : { ok: false, message: result.data.message });
    }

    const poll = window.setInterval(() => {
      // The popup posts its result just before it closes itself: one more poll lets that message in first.
      if (popup.closed && ++closedPolls > 1) settle({ ok: false, message: POPUP_CLOSED });
    }, CLOSED_POLL_MS);

    function onAbort() {
      popup?.close();
      settle({ ok: false, message: POPUP_CLOSED });
    }

    function settle(outcome: PopupOutcome) {
      window.removeEventListener('message', onMessage);
      window.clearInterval(poll);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    }

    window.addEventListener('message', onMessage);
    signal.addEventListener('abort', onAbort);
  });
}
