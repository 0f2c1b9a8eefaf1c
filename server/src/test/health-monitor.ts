import { fork } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

export type HealthProbe = { status: number; ms: number };

/**
 * What the load tests fail on: a health answer this late is a stalled event loop, not a busy
 * machine. The budget (docs/budgets.md) is 100 ms on a quiet machine; these tests run beside other
 * work, where a slow answer may be the machine's, so they allow ten times that and print the
 * figures (`healthSummary`) for the budget to be read from on a quiet one.
 */
export const HEALTH_STALL_MS = 1_000;

const PROBE_SCRIPT = path.join(import.meta.dirname, 'health-probe.ts');

/**
 * /api/health asked every `everyMs` from a process of its own, as an outside monitor would. A test
 * that sends the load from its own event loop cannot time health there too: its loop, busy with
 * the load's replies, added its own delay to answers the server had sent at once.
 * Resolves once the first answer has come, so that the load to watch can start.
 */
export async function watchHealth(port: number, everyMs = 20) {
  const child = fork(PROBE_SCRIPT, [String(port), String(everyMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(child, 'exit');
  const probes: HealthProbe[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  // A probe that died resolves every wait, and the test finds too few answers.
  void exited.then(() => waiting.splice(0).forEach((wait) => wait.resolve()));
  child.on('message', (probe: HealthProbe) => {
    probes.push(probe);
    for (const wait of waiting.filter((wait) => probes.length >= wait.count)) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  });
  const reached = (count: number) =>
    new Promise<void>((resolve) => (probes.length >= count ? resolve() : waiting.push({ count, resolve })));
  await reached(1);
  return {
    /** Resolves once `count` answers (or failures) have come. */
    reached,
    /** Stops the probes and gives every one taken, in order. */
    async stop(): Promise<HealthProbe[]> {
      if (child.connected) child.send('stop');
      await exited;
      return probes;
    },
  };
}

export type HealthWatch = Awaited<ReturnType<typeof watchHealth>>;

/** "N checks: p50, p99, max; slowest ten", for a failing assertion or a test's log. */
export function healthSummary(probes: HealthProbe[]): string {
  const sorted = probes.map((probe) => probe.ms).sort((a, b) => a - b);
  const at = (share: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!);
  const failed = probes.filter((probe) => probe.status !== 200).length;
  return `${probes.length} checks, ${failed} not 200: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; slowest ${sorted
    .slice(-10)
    .map(Math.round)
    .join(', ')}`;
}
