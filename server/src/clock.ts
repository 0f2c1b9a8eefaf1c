/** Time is a dependency: code that asks "what time is it" receives a clock, and tests move it. */
export type Clock = {
  now(): number;
  /** Calls `wake` once the clock reads `at` or later; the returned function cancels it. */
  wakeAt(at: number, wake: () => void): () => void;
};

// setTimeout takes at most 2^31 - 1 ms (about 24.8 days); longer waits are re-armed.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  wakeAt(at, wake) {
    let timer: NodeJS.Timeout;
    const arm = () => {
      const wait = at - Date.now();
      if (wait <= 0) {
        wake();
        return;
      }
      timer = setTimeout(arm, Math.min(wait, MAX_TIMEOUT_MS));
      // A pending wake-up alone must not keep the process alive.
      timer.unref();
    };
    timer = setTimeout(arm, 0);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
