import { useState } from 'react';

/** A request a screen starts; it stops early (and changes nothing) once `signal` is aborted. */
export type Request = (signal: AbortSignal) => Promise<unknown>;

export interface RequestRunner {
  /** Starts `request`, cancelling the one under way: only the latest request's reply matters. */
  run(request: Request): Promise<void>;
  /** Cancels the request under way, if any. */
  cancel(): void;
}

/**
 * The logic of `useRequest` without React: `onBusy` hears true when a request starts and false
 * when the latest one ends or is cancelled. A cancelled request's own end is not heard, so a
 * slow, superseded reply cannot stop the spinner of the request that replaced it.
 */
export function createRequestRunner(onBusy: (busy: boolean) => void): RequestRunner {
  let current: AbortController | null = null;
  return {
    async run(request) {
      current?.abort();
      const controller = new AbortController();
      current = controller;
      onBusy(true);
      try {
        await request(controller.signal);
      } finally {
        if (current === controller) {
          current = null;
          onBusy(false);
        }
      }
    },
    cancel() {
      if (current === null) return;
      current.abort();
      current = null;
      onBusy(false);
    },
  };
}

/**
 * One way for a screen to run its requests: a busy flag for the spinner, and each new request
 * cancels the previous one. A page that loads on opening returns `cancel` from its effect, so that
 * leaving the page (or changing its id) stops the load.
 */
export function useRequest(): RequestRunner & { busy: boolean } {
  const [busy, setBusy] = useState(false);
  // Made once, so that run and cancel keep their identity across renders and can be effect dependencies.
  const [{ run, cancel }] = useState(() => createRequestRunner(setBusy));
  return { busy, run, cancel };
}
