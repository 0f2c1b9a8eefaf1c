import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

/** The peak resident memory of a process so far, in MB (Linux). */
export function peakMemoryMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

/** A process's resident memory now, in MB (Linux). */
export function currentMemoryMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024);
}

/** Samples a process's resident memory every `everyMs`; `stop()` gives the highest sample, in MB. */
export function sampleMemory(pid: number, everyMs: number): { stop(): number } {
  let highest = currentMemoryMb(pid);
  const timer = setInterval(() => {
    highest = Math.max(highest, currentMemoryMb(pid));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return highest;
    },
  };
}

export type LoadResult = { p50: number; p99: number; requestsPerSecond: number; requests: number; errors: number };

/** 50 connections against one URL pattern for `seconds`, each request taking the next path. */
export async function load(
  baseUrl: string,
  nextPath: () => string,
  { connections = 50, seconds = 10, headers = {} }: { connections?: number; seconds?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    headers,
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: nextPath() }) }],
  });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: Math.round(result.requests.average),
    requests: result.requests.total,
    errors: result.errors + result.non2xx,
  };
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    date: new Date().toISOString(),
  };
}
