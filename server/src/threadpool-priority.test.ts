import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './test/server-process.ts';
import { THREADPOOL_NICE } from './threadpool-priority.ts';

/** Each thread of a process by name, with its nice (the 19th field of its stat, counted after the name). */
function threadsOf(pid: number): { name: string; nice: number }[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((thread) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { name, nice: Number(fields[16]) };
  });
}

describe.runIf(process.platform === 'linux')('the server process', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess();
  }, 30_000);
  afterAll(() => server?.stop());

  it('runs its threadpool, where passwords are hashed, below the event loop', () => {
    const threads = threadsOf(server.pid);
    const pool = threads.filter((thread) => thread.name === 'libuv-worker');
    expect(pool.length).toBeGreaterThanOrEqual(4);
    expect(pool.map((thread) => thread.nice)).toEqual(pool.map(() => THREADPOOL_NICE));
    expect(threads.find((thread) => thread.name === 'MainThread')?.nice).toBe(0);
  });
});
