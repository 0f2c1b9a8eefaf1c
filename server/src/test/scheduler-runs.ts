/** Follows the notice scheduler's runs (its `onRun`), so that a test can wait until none is under way. */
export function followSchedulerRuns() {
  const pending = new Set<Promise<void>>();
  return {
    onRun(run: Promise<void>): void {
      pending.add(run);
      const done = () => void pending.delete(run);
      run.then(done, done);
    },
    /** Resolves once no run is under way; a run that starts another hands over before it ends. */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
