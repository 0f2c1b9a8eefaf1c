import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const START_TIMEOUT_MS = 30_000;

/**
 * The flags `npm start` gives Node (package.json), so that tests and benchmarks run the server as
 * it ships. A young generation of two 16 MB semi-spaces lets an import's records die young: 8 MB
 * filled the old generation (a million-book load's peak 413 MB), 32 ran no faster and held 30 MB
 * more. `gc` lets an upload be collected as it is received (spooled-upload.ts). Without Maglev's
 * inlining, the word index's loops over a million bits (doc-bits.ts) run as TurboFan compiled
 * them: inlined into a search's Maglev code, which stayed there through 13,000 searches, a count
 * took 0.56 ms where it takes 0.11 (docs/decisions.md, "Book search from a word index in memory").
 * After a full collection V8 lets a heap grow to up to four times what survived, the more the faster
 * it collects: under a load of searches at a million books the main thread's old space grew to
 * 134 MB for 71 live, and each searching thread's alike, the server 542-570 MB. Grown by a fifth
 * (every thread's heap: the flag is the process's), 458-465 MB, as many searches a second
 * (docs/decisions.md, "The server's memory under load").
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=20', '--expose-gc', '--no-maglev-inlining'];

/**
 * The environment `npm start` gives Node. glibc's malloc raises the size it maps blocks at to the
 * largest block freed (up to 32 MB), so once the word index's build has freed a grown array, every
 * later array up to that size sits in the building thread's arena, among the index's, and what the
 * build freed stays resident after the thread ends: 138 MB at a million books. A fixed 1 MB
 * threshold maps each larger block on its own and gives it back when freed.
 * Thresholds of 128 KB did the same and made `/api/health` miss its 100 ms during a bookmark import.
 */
export const SERVER_ENVIRONMENT = { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=1048576' };

/** The server's entry as `npm start` runs it: the JavaScript `npm run build:server` builds into dist/. */
export const BUILT_ENTRY = 'dist/server/src/main.js';
/** Its TypeScript sources, which Node strips as it loads them. */
const SOURCE_ENTRY = 'server/src/main.ts';

export async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A running server; `env` starts it again on the same port and data, `logs()` is what it wrote, for a failing test to show. */
export type ServerProcess = {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  dataDir: string;
  env: Record<string, string>;
  logs(): string;
  /** Ends it with SIGTERM, as a service manager would, and removes the data dir if this launcher made it. */
  stop(): Promise<void>;
};

/**
 * The real server process, with the flags and environment of `npm start`, for server tests,
 * end-to-end tests and benchmarks alike: `built` runs the JavaScript of dist/ as `npm start` does
 * (the end-to-end tests and the benchmarks, after a build), else the sources (the server's tests,
 * with nothing to build first). PORT and DATA_DIR come from `env` when given (a restart on the same
 * data), else a free port and a fresh temporary folder. Resolves once it answers `/api/health`.
 */
export async function startServerProcess(given: Record<string, string> = {}, { built = false }: { built?: boolean } = {}): Promise<ServerProcess> {
  const entry = built ? BUILT_ENTRY : SOURCE_ENTRY;
  if (built && !fs.existsSync(path.join(ROOT, entry))) throw new Error(`${entry} is missing: run \`npm run build:server\` first`);
  const ownsDataDir = given.DATA_DIR === undefined;
  const env = {
    PORT: given.PORT ?? String(await freePort()),
    DATA_DIR: given.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-server-')),
    ...given,
  };
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry], {
    cwd: ROOT,
    env: { ...process.env, ...SERVER_ENVIRONMENT, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    const up = await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`server did not start within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    await sleep(100);
  }
  return {
    child,
    pid: child.pid!,
    baseUrl,
    dataDir: env.DATA_DIR,
    env,
    logs: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (ownsDataDir) fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
    },
  };
}

/** kill -9, and wait until it is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
