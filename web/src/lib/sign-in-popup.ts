import { SignInResult } from '../../../contract/auth.ts';

export type PopupOutcome = { ok: true } | { ok: false; message: string };

export const POPUP_BLOCKED = 'The sign-in window was blocked: allow pop-ups for this site, then try again.';
export const POPUP_CLOSED = 'The sign-in window was closed before the sign-in finished.';

const POPUP_NAME = 'organiser-sign-in';
const POPUP_FEATURES = 'popup,width=500,height=650';
const CLOSED_POLL_MS = 250;

/**
 * Opens the provider's popup at `url`; null when the browser blocks it. It must be called in the
 * click's own handler: a popup opened after waiting for a call may be blocked, so a page that must
 * call the server first opens `about:blank` and sends it on afterwards.
 */
export function openSignInPopup(url: string): Window | null {
  const popup = window.open(url, POPUP_NAME, POPUP_FEATURES);
  popup?.focus();
  return popup;
}

/**
 * Settles with what the popup's last page posts (from this origin, by that popup), or with a
 * failure when the popup did not open or is closed first. After a sign-in the server has set the
 * refresh cookie by the time success arrives.
 */
export function popupOutcome(popup: Window | null, signal: AbortSignal): Promise<PopupOutcome> {
  if (popup === null) return Promise.resolve({ ok: false, message: POPUP_BLOCKED });

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
      if (popup?.closed && ++closedPolls > 1) settle({ ok: false, message: POPUP_CLOSED });
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
