import { percentile } from './measure.ts';

export type ClosedLoopResult = { p50: number; p99: number; requestsPerSecond: number; requests: number; errors: number };

/**
 * `clients` clients, each sending its next request when its last is answered, for `seconds`; a
 * request under way at the end is waited for and counted, so a server that takes seconds per
 * answer is measured on its answers rather than on the ones that happened to be quick.
 */
export async function closedLoop(
  baseUrl: string,
  nextPath: () => string,
  { clients, seconds, headers = {} }: { clients: number; seconds: number; headers?: Record<string, string> },
): Promise<ClosedLoopResult> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const path = nextPath();
      const sent = performance.now();
      const response = await fetch(`${baseUrl}${path}`, { headers });
      await response.arrayBuffer();
      latencies.push(performance.now() - sent);
      if (!response.ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (ms: number) => +ms.toFixed(1);
  return {
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    requestsPerSecond: +(latencies.length / elapsed).toFixed(1),
    requests: latencies.length,
    errors,
  };
}
