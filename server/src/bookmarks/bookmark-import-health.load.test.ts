import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookmarkImportReply } from '../../../contract/bookmarks.ts';
import { writeNetscapeFile } from '../../../bench/bookmarks/generate-bookmarks.ts';
import { timedGet } from '../test/raw-http.ts';
import { type ServerProcess, startServerProcess } from '../test/server-process.ts';

const LINKS = 100_000;
const HEALTH_BUDGET_MS = 100;
const PROBE_EVERY_MS = 20;

/**
 * DESIGN §6 "health under attack" for the heaviest request a user can make: a 100,000-link
 * bookmarks file (11 MB) imported into the real server process on SQLite, whose driver never
 * yields, while /api/health is asked every 20 ms on connections of its own: every answer within
 * 100 ms (issue 11). Its slowest answers waited behind a batch of the import's writes.
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
    const registered = await fetch(`${server.baseUrl}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'importer@example.org', password: 'a long enough password', displayName: 'Importer' }),
    });
    token = ((await registered.json()) as { idToken: string }).idToken;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('answers health checks within 100 ms while the file is read, parsed and written', async () => {
    const form = new FormData();
    form.append('file', await fs.openAsBlob(file), 'bookmarks.html');
    let importing = true;
    const imported = fetch(`${server.baseUrl}/bookmarks/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
      .then(async (response) => ({ status: response.status, body: (await response.json()) as unknown }))
      .finally(() => (importing = false));

    const times: number[] = [];
    while (importing) {
      const probe = await timedGet(Number(server.env.PORT), '/api/health');
      expect(probe.status, server.logs()).toBe(200);
      times.push(probe.ms);
      await sleep(PROBE_EVERY_MS);
    }

    const reply = await imported;
    expect(reply.status, JSON.stringify(reply.body).slice(0, 500)).toBe(200);
    expect(BookmarkImportReply.parse(reply.body).imported).toBe(LINKS);
    const sorted = [...times].sort((a, b) => a - b);
    const at = (share: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!);
    const summary = `${times.length} checks: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${Math.round(sorted.at(-1)!)} ms; slowest ${sorted
      .slice(-10)
      .map(Math.round)
      .join(', ')}`;
    console.info(`health during the import: ${summary}`);
    expect(times.length).toBeGreaterThan(100);
    expect(sorted.at(-1)!, summary).toBeLessThanOrEqual(HEALTH_BUDGET_MS);
    // About a minute on a quiet machine; three times that while other test runs share the two cores.
  }, 240_000);
});
