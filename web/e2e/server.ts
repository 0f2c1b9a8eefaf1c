import fs from 'node:fs';
import path from 'node:path';
import { freePort, type ServerProcess, startServerProcess } from '../../server/src/test/server-process.ts';

export { freePort };

const root = path.resolve(import.meta.dirname, '../..');

export type RunningServer = ServerProcess;

/**
 * The real server, as `npm start` runs it (built into dist/), on a free port and a temporary data
 * dir, serving the built client. `npm run build` builds both; the benchmarks build the server alone.
 */
export async function startServer(
  env: Record<string, string> = {},
  { needsWebClient = true }: { needsWebClient?: boolean } = {},
): Promise<RunningServer> {
  if (needsWebClient && !fs.existsSync(path.join(root, 'web/dist/index.html'))) {
    throw new Error('web/dist is missing: run `npm run build` before the end-to-end tests');
  }
  return startServerProcess(env, { built: true });
}
