import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../server/src/test/server-process.ts';
import { CALIBRE_CONFIG_DIRECTORY } from './calibre-library.ts';

export type RunningCalibreServer = { baseUrl: string; pid: number; startSeconds: number; stop(): Promise<void> };

/**
 * Debian's calibre-server on a library: headless, no authentication, on a free local port. It
 * reads the library when first asked, so it is ready once a first search has been answered.
 */
export async function startCalibreServer(libraryDir: string, { timeoutSeconds = 600 } = {}): Promise<RunningCalibreServer> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    'calibre-server',
    ['--listen-on=127.0.0.1', `--port=${port}`, '--disable-auth', '--disable-use-bonjour', '--log=/dev/null', '--access-log=/dev/null', libraryDir],
    { env: { ...process.env, CALIBRE_CONFIG_DIRECTORY }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`calibre-server exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${baseUrl}/ajax/search?query=&num=1`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`calibre-server did not answer within ${timeoutSeconds} s:\n${output}`);
    await sleep(200);
  }
  return {
    baseUrl,
    pid: child.pid!,
    startSeconds: +((performance.now() - started) / 1000).toFixed(1),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
