import type { Clock } from '../clock.ts';

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
