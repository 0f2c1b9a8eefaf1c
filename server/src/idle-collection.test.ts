import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './test/server-process.ts';

/**
 * The server's flags but for its heaps' smaller growth (`--heap-growing-percent`), which collects
 * this test's objects, dropped all at once, soon after on its own. A heap dropped below its limit
 * is not: the server at rest after a load of searches still held 121 MB of heap for 57 MB live
 * until its idle collection.
 */
const FLAGS = SERVER_NODE_FLAGS.filter((flag) => !flag.startsWith('--heap-growing-percent'));

/**
 * A Node started with those flags grows its old generation to about 150 MB of objects,
 * lets them go and then `then` (rests, or keeps busy); it prints its heap's size, in MB, before
 * and 1.5 s after letting them go.
 */
function heapMb({ collecting, then }: { collecting: boolean; then: 'rest' | 'busy' }): { grown: number; after: number } {
  const main = `
    import v8 from 'node:v8';
    import { collectWhenIdle } from ${JSON.stringify(new URL('./idle-collection.ts', import.meta.url).href)};
    if (${collecting}) collectWhenIdle({ everyMs: 200 });
    const heapMb = () => Math.round(v8.getHeapStatistics().total_heap_size / 2 ** 20);
    let kept = [];
    for (let i = 0; i < 1.5e6; i++) kept.push({ i, text: 'x'.repeat(40) + i });
    const grown = heapMb();
    kept = undefined;
    const until = Date.now() + 1500;
    const busy = () => {
      let garbage = 0;
      for (let i = 0; i < 2e4; i++) garbage += String(i).length;
      if (Date.now() < until) setImmediate(busy);
      return garbage;
    };
    if (${JSON.stringify(then)} === 'busy') busy();
    setTimeout(() => console.log(JSON.stringify({ grown, after: heapMb() })), 1500);`;
  return JSON.parse(execFileSync(process.execPath, [...FLAGS, '--input-type=module', '-e', main], { encoding: 'utf8' })) as {
    grown: number;
    after: number;
  };
}

describe('collecting when idle', () => {
  it('gives back a heap grown under load once the thread rests', () => {
    const { grown, after } = heapMb({ collecting: true, then: 'rest' });
    expect(grown).toBeGreaterThan(100);
    expect(after).toBeLessThan(grown / 3);
  });

  it('would keep it without (V8 gives memory back only when told the thread is idle)', () => {
    const { grown, after } = heapMb({ collecting: false, then: 'rest' });
    expect(after).toBeGreaterThan(grown * 0.8);
  });

  it('does not collect while the thread is busy', () => {
    const { grown, after } = heapMb({ collecting: true, then: 'busy' });
    expect(after).toBeGreaterThan(grown * 0.8);
  });
});

/**
 * A Node with the server's flags fills its young generation with objects that live a moment (a
 * ring of 20,000), so that its old generation hardly grows, then rests 1.5 s; it prints its young
 * generation's size in MB before and after, and the collections it ran meanwhile.
 */
function youngMb({ collecting }: { collecting: boolean }): { grown: number; after: number; collections: number } {
  const main = `
    import v8 from 'node:v8';
    import { collectWhenIdle } from ${JSON.stringify(new URL('./idle-collection.ts', import.meta.url).href)};
    const young = () => Math.round(v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / 2 ** 20);
    let collections = 0;
    const collect = globalThis.gc;
    globalThis.gc = (options) => ((collections += 1), collect(options));
    // Only the young generation can call for a collection here.
    if (${collecting}) collectWhenIdle({ everyMs: 200, grownBytes: 2 ** 40 });
    const ring = new Array(20_000);
    for (let i = 0; i < 3e6; i++) ring[i % ring.length] = { i, text: 'y' + i };
    const grown = young();
    setTimeout(() => console.log(JSON.stringify({ grown, after: young(), collections })), 1500);`;
  return JSON.parse(execFileSync(process.execPath, [...FLAGS, '--input-type=module', '-e', main], { encoding: 'utf8' })) as {
    grown: number;
    after: number;
    collections: number;
  };
}

describe('collecting when idle, the young generation', () => {
  it('gives back a grown young generation once the thread rests, with one collection', () => {
    const { grown, after, collections } = youngMb({ collecting: true });
    expect(grown).toBeGreaterThanOrEqual(16);
    expect(after).toBeLessThanOrEqual(2);
    expect(collections).toBe(1);
  });

  it('would keep it without', () => {
    const { grown, after } = youngMb({ collecting: false });
    expect(after).toBe(grown);
  });
});
