import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../server/src/test/server-process.ts';

export type FixedRoute = { method: 'GET' | 'POST'; url: string; body: string };

/** Starts the HTTP floor (fixed-reply-server.ts) answering each route with its body. */
export async function fixedReplyServer(routes: FixedRoute[]): Promise<{ baseUrl: string; stop(): void }> {
  const routesFile = path.join(os.tmpdir(), `organiser-bench-floor-${process.pid}.json`);
  fs.writeFileSync(routesFile, JSON.stringify(routes));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'fixed-reply-server.ts'), routesFile, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    stop() {
      child.kill();
      fs.rmSync(routesFile, { force: true });
    },
  };
}
