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

export type ManualClock = Clock & {
  /** Moves time on and calls, in time order, every wake-up that falls due. */
  advance(ms: number): void;
  /** The time of the earliest pending wake-up, if any. */
  nextWake(): number | undefined;
};

/** A clock that only moves when told to. */
export function manualClock(start = Date.UTC(2026, 0, 5, 12)): ManualClock {
  let current = start;
  const pending = new Set<{ at: number; wake: () => void }>();
  return {
    now: () => current,
    wakeAt(at, wake) {
      const entry = { at, wake };
      pending.add(entry);
      return () => pending.delete(entry);
    },
    advance(ms) {
      current += ms;
      const due = [...pending].filter((entry) => entry.at <= current).sort((a, b) => a.at - b.at);
      for (const entry of due) {
        pending.delete(entry);
        entry.wake();
      }
    },
    nextWake() {
      const times = [...pending].map((entry) => entry.at);
      return times.length > 0 ? Math.min(...times) : undefined;
    },
  };
}
