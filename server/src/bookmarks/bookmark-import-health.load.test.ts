import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookmarkImportReply } from '../../../contract/bookmarks.ts';
import { writeNetscapeFile } from '../../../bench/bookmarks/generate-bookmarks.ts';
import { healthSummary, watchHealth } from '../test/health-monitor.ts';
import { type ServerProcess, startServerProcess } from '../test/server-process.ts';
import { signUp } from '../test/server-accounts.ts';

const LINKS = 100_000;
const HEALTH_BUDGET_MS = 100;

/**
 * DESIGN §6 "health under attack" for the heaviest request a user can make: a 100,000-link
 * bookmarks file (11 MB) imported into the real server process on SQLite, whose driver never
 * yields, while /api/health is asked every 20 ms on connections of its own: every answer within
 * 100 ms (issue 11). Its slowest answers waited behind a batch of the import's writes (docs/decisions.md,
 * "Health during a bookmark import, second look").
 */
describe('health during a 100,000-link bookmark import', () => {
  let server: ServerProcess;
  let folder: string;
  let file: string;
  let token: string;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-import-health-'));
    file = path.join(folder, 'bookmarks.html');
    writeNetscapeFile(file, LINKS);
    server = await startServerProcess();
    token = (await signUp(server.baseUrl, { email: 'importer@example.org', displayName: 'Importer' })).idToken;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('answers health checks within 100 ms while the file is read, parsed and written', async () => {
    const form = new FormData();
    form.append('file', await fs.openAsBlob(file), 'bookmarks.html');
    const health = await watchHealth(Number(server.env.PORT));
    const imported = await fetch(`${server.baseUrl}/bookmarks/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const reply = { status: imported.status, body: (await imported.json()) as unknown };
    const probes = await health.stop();

    expect(reply.status, JSON.stringify(reply.body).slice(0, 500)).toBe(200);
    expect(BookmarkImportReply.parse(reply.body).imported).toBe(LINKS);
    const summary = healthSummary(probes);
    console.info(`health during the import: ${summary}`);
    expect(probes.length).toBeGreaterThan(100);
    expect(probes.filter((probe) => probe.status !== 200 || probe.ms > HEALTH_BUDGET_MS), `${summary}\n${server.logs()}`).toEqual([]);
    // About a minute on a quiet machine; three times that while other test runs share the two cores.
  }, 240_000);
});
