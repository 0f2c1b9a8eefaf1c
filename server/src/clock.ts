/** Time is a dependency: code that asks "what time is it" receives a clock, and tests move it. */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export function manualClock(start = Date.UTC(2026, 0, 5, 12)): Clock & { advance(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}
