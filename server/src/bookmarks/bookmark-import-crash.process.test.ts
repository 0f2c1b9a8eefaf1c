import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookmarkImportReply, BookmarkPage, CurrentBookmarkImport } from '../../../contract/bookmarks.ts';
import { writeNetscapeFile } from '../../../bench/bookmarks/generate-bookmarks.ts';
import { installationEnv } from '../test/organiser-cli.ts';
import { freePort, killHard, type ServerProcess, startServerProcess } from '../test/server-process.ts';
import { signUp } from '../test/server-accounts.ts';
import { createTestDatabase, type TestDatabase, testDialects } from '../test/test-app.ts';
import { openStorage } from '../storage/database.ts';
import { ALIVE_FOR_MS } from './bookmark-imports.store.ts';

const LINKS = 10_000;
/** Links the import has written when the server is killed: some batches in, far from the end. */
const KILLED_AFTER = 1_000;

/** How many of the owner's bookmarks, index entries, entries' texts and words (SQLite's word index) are stored, and the count the list shows. */
async function storedCounts(database: TestDatabase, ownerId: string) {
  const storage = await openStorage(database);
  try {
    const count = async (query: ReturnType<typeof sql<{ n: number | string }>>) => Number((await query.execute(storage.db)).rows[0]?.n ?? 0);
    return {
      bookmarks: await count(sql`select count(*) as n from bookmarks where owner_id = ${ownerId}`),
      indexEntries: await count(sql`select count(*) as n from bookmark_index where owner_id = ${ownerId}`),
      entryTexts: await count(sql`select count(*) as n from bookmark_index_content c join bookmarks b on b.id = c.bookmark_id where b.owner_id = ${ownerId}`),
      words:
        database.dialect === 'sqlite'
          ? await count(sql`select count(*) as n from bookmark_index_fts`)
          : await count(sql`select count(*) as n from bookmark_index where owner_id = ${ownerId} and search is not null`),
      notIndexed: await count(
        sql`select count(*) as n from bookmarks b where b.owner_id = ${ownerId} and not exists (select 1 from bookmark_index i where i.bookmark_id = b.id)`,
      ),
      listed: await count(sql`select doc_count as n from bookmark_facets where owner_id = ${ownerId} and kind = 'all'`),
    };
  } finally {
    await storage.close();
  }
}

/**
 * Issue 34: a server killed with SIGKILL in the middle of an import, then started again on the
 * same data. Each batch of the import is stored whole, its bookmarks with their index entries; the
 * owner is told that the import was cut short and how far it got; importing the same file again
 * adds the rest and the notice goes.
 */
describe.each(testDialects)('a bookmark import cut short by kill -9 on %s', (dialect) => {
  let folder: string;
  let file: string;

  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-import-crash-'));
    file = path.join(folder, 'bookmarks.html');
    writeNetscapeFile(file, LINKS);
  });
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('keeps whole batches, each bookmark indexed, says the import was cut short, and finishes it from the same file', { timeout: 600_000 }, async () => {
    const database = await createTestDatabase(dialect);
    const env = { PORT: String(await freePort()), ...installationEnv(database) };
    let server: ServerProcess = await startServerProcess(env);
    try {
      const { idToken, user } = await signUp(server.baseUrl, { email: 'importer@example.org' });
      const headers = { authorization: `Bearer ${idToken}` };
      const progress = async () => CurrentBookmarkImport.parse(await (await fetch(`${server.baseUrl}/bookmarks/import/progress`, { headers })).json());
      const total = async () => BookmarkPage.parse(await (await fetch(`${server.baseUrl}/bookmarks/?pageSize=1`, { headers })).json()).total;
      const upload = async () => {
        const form = new FormData();
        form.append('file', await fs.openAsBlob(file), 'bookmarks.html');
        return fetch(`${server.baseUrl}/bookmarks/import`, { method: 'POST', headers, body: form });
      };

      // The reply never comes: the server dies first.
      const interrupted = upload().catch(() => null);
      for (const deadline = Date.now() + 240_000; ((await progress()).import?.imported ?? 0) < KILLED_AFTER; await sleep(20)) {
        if (Date.now() > deadline) throw new Error(`the import did not reach ${KILLED_AFTER} bookmarks:\n${server.logs()}`);
      }
      await killHard(server.child);
      expect(await interrupted).toBeNull();

      server = await startServerProcess(env);
      // A server cannot tell at once whether another (PostgreSQL lets several share the data) is
      // still running the import: it is cut short once its row has gone unrenewed long enough.
      let cutShort = (await progress()).cut_short;
      for (const deadline = Date.now() + ALIVE_FOR_MS + 120_000; cutShort === null; cutShort = (await progress()).cut_short) {
        if (Date.now() > deadline) throw new Error(`the import was never said to be cut short:\n${server.logs()}`);
        await sleep(500);
      }
      const kept = cutShort.imported;
      expect(cutShort).toMatchObject({ links: LINKS });
      expect(kept).toBeGreaterThanOrEqual(KILLED_AFTER);
      expect(kept).toBeLessThan(LINKS);
      expect(await total()).toBe(kept);

      await server.stop();
      expect(await storedCounts(database, user.uid)).toEqual({
        bookmarks: kept,
        indexEntries: kept,
        entryTexts: kept,
        words: kept,
        notIndexed: 0,
        listed: kept,
      });

      server = await startServerProcess(env);
      const finished = await upload();
      expect(finished.status).toBe(200);
      expect(BookmarkImportReply.parse(await finished.json())).toMatchObject({ imported: LINKS - kept, skipped: kept, errors: [] });
      expect((await progress()).cut_short).toBeNull();
      expect(await total()).toBe(LINKS);
    } finally {
      await killHard(server.child);
      await database.drop();
    }
  });
});
