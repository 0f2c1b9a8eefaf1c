import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, SERVER_NODE_FLAGS } from '../../server/src/test/server-process.ts';

export { freePort };

const root = path.resolve(import.meta.dirname, '../..');

export type RunningServer = { baseUrl: string; dataDir: string; pid: number; logs(): string; stop(): Promise<void> };

/** The real server, as `npm start` runs it, on a free port and a temporary data dir. */
export async function startServer(
  env: Record<string, string> = {},
  { needsWebClient = true }: { needsWebClient?: boolean } = {},
): Promise<RunningServer> {
  if (needsWebClient && !fs.existsSync(path.join(root, 'web/dist/index.html'))) {
    throw new Error('web/dist is missing: run `npm run build` before the end-to-end tests');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-e2e-'));
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start within 20 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    dataDir,
    pid: child.pid!,
    logs: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
