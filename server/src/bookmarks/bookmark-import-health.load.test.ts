import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookmarkImportReply } from '../../../contract/bookmarks.ts';
import { writeNetscapeFile } from '../../../bench/bookmarks/generate-bookmarks.ts';
import { HEALTH_STALL_MS, healthSummary, watchHealth } from '../test/health-monitor.ts';
import { type ServerProcess, startServerProcess } from '../test/server-process.ts';
import { signUp } from '../test/server-accounts.ts';

const LINKS = 100_000;
const NESTED_FOLDERS = 100_000;

/** Folders each inside the one before, as a browser writes them, with a link in the deepest (issue 34). */
function writeNestedFolders(file: string, depth: number) {
  const open = '<DT><H3>folder</H3>\n<DL><p>\n'.repeat(depth);
  const close = '</DL><p>\n'.repeat(depth);
  fs.writeFileSync(file, `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${open}<DT><A HREF="https://deep.example/">Deep</A>\n${close}</DL><p>\n`);
}

/**
 * docs/budgets.md "health under attack" for the heaviest request a user can make: a 100,000-link
 * bookmarks file (11 MB) imported into the real server process on SQLite, whose driver never
 * yields, while /api/health is asked every 20 ms on connections of its own: no answer stalls
 * (`HEALTH_STALL_MS`; the budget of 100 ms is read from the printed figures). Its slowest answers waited behind a batch of the import's writes
 * (bench/results/history.md, "Health under load").
 * And a file of 100,000 folders nested one inside the other, which is refused past the bound on
 * nesting (docs/bookmarks-import.md).
 */
describe('health during bookmark imports', () => {
  let server: ServerProcess;
  let folder: string;
  let file: string;
  let nested: string;
  let token: string;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-import-health-'));
    file = path.join(folder, 'bookmarks.html');
    writeNetscapeFile(file, LINKS);
    nested = path.join(folder, 'nested.html');
    writeNestedFolders(nested, NESTED_FOLDERS);
    server = await startServerProcess();
    token = (await signUp(server.baseUrl, { email: 'importer@example.org', displayName: 'Importer' })).idToken;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('answers health checks without a stall while the file is read, parsed and written', async () => {
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
    expect(probes.filter((probe) => probe.status !== 200 || probe.ms > HEALTH_STALL_MS), `${summary}\n${server.logs()}`).toEqual([]);
    // About a minute on a quiet machine; three times that while other test runs share the two cores.
  }, 240_000);

  it('answers health checks without a stall while a file of 100,000 nested folders is refused', async () => {
    const form = new FormData();
    form.append('file', await fs.openAsBlob(nested), 'nested.html');
    const health = await watchHealth(Number(server.env.PORT));
    const refused = await fetch(`${server.baseUrl}/bookmarks/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const reply = { status: refused.status, body: (await refused.json()) as { message?: string } };
    // Enough answers to have watched the server past the refusal.
    await health.reached(50);
    const probes = await health.stop();

    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.message).toMatch(/nests more than 1000 elements inside one another/);
    const summary = healthSummary(probes);
    console.info(`health while the nested file is refused: ${summary}`);
    expect(probes.filter((probe) => probe.status !== 200 || probe.ms > HEALTH_STALL_MS), `${summary}\n${server.logs()}`).toEqual([]);
    // Seconds on a quiet machine; the file read in time that grows with the square of its depth took minutes.
  }, 240_000);
});
