import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The flags `npm start` gives Node (package.json), so that tests and benchmarks run the server as
 * it ships. A larger young generation lets the records of a long import die young rather than
 * fill the old one: a million-book load peaks 40 MB lower, and runs faster.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'];

export async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `logs()` is what the process wrote, for a failing test to show. */
export type ServerProcess = { child: ChildProcess; baseUrl: string; logs(): string };

/** The real server process, as `npm start` runs it, with `env` (PORT and DATA_DIR among it); resolves once it answers. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    const up = await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false);
    if (up) return { child, baseUrl, logs: () => output };
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await sleep(100);
  }
}

/** kill -9, and wait until it is gone. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
