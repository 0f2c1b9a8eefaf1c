import fs from 'node:fs';
import os from 'node:os';

/** Linux's nice for the threadpool: weight 110 against the event loop's 1024, so ~10% of a shared core. */
export const THREADPOOL_NICE = 10;

/** The name libuv gives its threadpool's threads (libuv 1.45 and later). */
const POOL_THREAD = 'libuv-worker';

/**
 * Password hashes run on libuv's threadpool: scrypt, about 0.1 s of a core each, up to three at
 * once (hashing-queue.ts). On two cores those threads had the same claim on a core as the event
 * loop, which waited its turn for up to 90 ms in a registration flood with a sign-in under way.
 * At a lower priority they take what the event loop leaves, which is nearly everything at rest.
 * File reads on the same threads wait on the disk, not a core, and keep their speed.
 *
 * Linux gives each thread its own nice, set through the thread's id; elsewhere the call would set
 * the whole process's, so nothing is done there. A system that refuses the change (a seccomp
 * profile may) leaves the threads as they were, as before.
 */
export async function lowerThreadpoolPriority(): Promise<void> {
  if (process.platform !== 'linux') return;
  // libuv starts every thread of its pool on the first work handed to it.
  await fs.promises.access(import.meta.dirname);
  for (const thread of fs.readdirSync('/proc/self/task')) {
    const name = fs.readFileSync(`/proc/self/task/${thread}/comm`, 'utf8').trim();
    if (name !== POOL_THREAD) continue;
    try {
      os.setPriority(Number(thread), THREADPOOL_NICE);
    } catch {
      return;
    }
  }
}
