import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** A start from the sources took over 30 s while eight test runs shared the two cores. */
const START_TIMEOUT_MS = 90_000;

/** The server's entry as `npm start` runs it: the JavaScript `npm run build` builds into dist/. */
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
 * The real server process, as `npm start` runs it (Node with no options), for server tests,
 * end-to-end tests and benchmarks alike: `built` runs the JavaScript of dist/ as `npm start` does
 * (the end-to-end tests and the benchmarks, after a build), else the sources (the server's tests,
 * with nothing to build first). PORT and DATA_DIR come from `env` when given (a restart on the same
 * data), else a free port and a fresh temporary folder. Resolves once it answers `/api/health`.
 */
export async function startServerProcess(given: Record<string, string> = {}, { built = false }: { built?: boolean } = {}): Promise<ServerProcess> {
  const entry = built ? BUILT_ENTRY : SOURCE_ENTRY;
  if (built && !fs.existsSync(path.join(ROOT, entry))) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const ownsDataDir = given.DATA_DIR === undefined;
  const env = {
    PORT: given.PORT ?? String(await freePort()),
    DATA_DIR: given.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-server-')),
    ...given,
  };
  const child = spawn(process.execPath, [entry], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
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
