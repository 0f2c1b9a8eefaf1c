import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './test/server-process.ts';

/**
 * A Node started with `flags` keeps 46 MB of objects and makes objects that outlive its young
 * generation and then die (as a load of searches makes replies): it prints the largest its heap
 * grew to (its young generation's 48 MB included) and what was live at the end, in MB. With the
 * server's flags 145 MB; with V8's own growth 316.
 */
function heapGrowth(flags: string[]): { most: number; live: number } {
  const main = `
    import v8 from 'node:v8';
    const kept = [];
    for (let i = 0; i < 2e5; i++) kept.push({ i, text: 'x'.repeat(40) + i });
    const ring = new Array(1.5e5);
    let most = 0;
    for (let n = 0; n < 2e6; n++) {
      ring[n % ring.length] = { n, text: 'y'.repeat(40) + n };
      if (n % 1e4 === 0) most = Math.max(most, v8.getHeapStatistics().total_heap_size);
    }
    globalThis.gc();
    console.log(JSON.stringify({ most: most / 2 ** 20, live: v8.getHeapStatistics().used_heap_size / 2 ** 20, kept: kept.length }));`;
  return JSON.parse(execFileSync(process.execPath, [...flags, '--input-type=module', '-e', main], { encoding: 'utf8' })) as { most: number; live: number };
}

describe("the server's heaps", () => {
  it('grow to less than four times what they keep', () => {
    const { most, live } = heapGrowth(SERVER_NODE_FLAGS);
    expect(most).toBeLessThan(live * 4);
  });

  it("would grow past five times that with V8's own growth", () => {
    const { most, live } = heapGrowth(SERVER_NODE_FLAGS.filter((flag) => !flag.startsWith('--heap-growing-percent')));
    expect(most).toBeGreaterThan(live * 5);
  });
});
