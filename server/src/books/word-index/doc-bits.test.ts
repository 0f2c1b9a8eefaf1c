import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_ENVIRONMENT, SERVER_NODE_FLAGS } from '../../test/server-process.ts';

type Resident = { before: number; holding: number; after: number };

/**
 * A Node with the server's flags and malloc settings runs a thread as a searching thread at a
 * million books uses memory: it makes and fills `sets` sets, then something small that outlives it
 * (a block it hands to the main thread), then ends. Prints the process's resident MB before the
 * thread, while it holds its sets, and once it has ended.
 */
function residentMb(sets: number): Resident {
  const main = `
    import fs from 'node:fs';
    import { Worker } from 'node:worker_threads';
    const residentMb = () => Math.round(Number(/^VmRSS:\\s+(\\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024);
    const thread = \`
      import { parentPort } from 'node:worker_threads';
      import { docBits } from ${JSON.stringify(new URL('./doc-bits.ts', import.meta.url).href)};
      const sets = Array.from({ length: ${sets} }, () => docBits(1_000_000).fill(0xffffffff));
      const outliving = new Uint8Array(64 * 1024).fill(1);
      parentPort.postMessage({ sets: sets.length, outliving }, [outliving.buffer]);\`;
    const before = residentMb();
    let holding = 0;
    const kept = [];
    const worker = new Worker(new URL('data:text/javascript,' + encodeURIComponent(thread)));
    worker.on('message', ({ outliving }) => { holding = residentMb(); kept.push(outliving); });
    worker.on('exit', () => setTimeout(() => console.log(JSON.stringify({ before, holding, after: residentMb() })), 300));`;
  return JSON.parse(
    execFileSync(process.execPath, [...SERVER_NODE_FLAGS, '--input-type=module', '-e', main], {
      encoding: 'utf8',
      env: { ...process.env, ...SERVER_ENVIRONMENT },
    }),
  ) as Resident;
}

describe('sets of books', () => {
  it('give their memory back when the thread that made them ends, whatever it left in its malloc arena', () => {
    // What a thread leaves behind in any case (its isolate's, its module's) is the same with no set.
    const none = residentMb(0);
    const sets = residentMb(64);
    // 64 sets of 125 KB.
    expect(sets.holding - sets.before - (none.holding - none.before)).toBeGreaterThan(7);
    expect(sets.after - sets.before - (none.after - none.before)).toBeLessThan(2);
  });
});
