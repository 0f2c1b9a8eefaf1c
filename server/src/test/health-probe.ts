import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { timedGet } from './raw-http.ts';

// Run by health-monitor.ts in a process of its own: asks /api/health on a fresh connection, sends
// the parent each answer's status and time, waits `everyMs`, and again until the parent says stop.
const [port, everyMs] = process.argv.slice(2).map(Number);
/**
 * An outside monitor runs on a machine of its own. Here it shares two cores with the server and
 * the test that loads it, and its own turns came late: during a bookmark import its slowest
 * answers took longer than the server's event loop had waited. Above their priority
 * it times the server alone. Where raising a priority is not allowed (not root), it runs as it was.
 */
const MONITOR_NICE = -10;
try {
  os.setPriority(MONITOR_NICE);
} catch {
  // Timed at the priority it has.
}
/** A server that has not answered by then is recorded as not answering (status 0), and the probes go on. */
const GIVE_UP_MS = 5_000;
let stopping = false;
process.once('message', () => (stopping = true));

while (!stopping) {
  const started = performance.now();
  const probe = await timedGet(port!, '/api/health', GIVE_UP_MS).catch(() => ({ status: 0, ms: performance.now() - started }));
  process.send!(probe);
  await sleep(everyMs);
}
process.disconnect();
