import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AuthReply } from '../../../contract/auth.ts';
import { Bookmark, BookmarkPage, BookmarkSearchResult, NO_MORE_RESULTS } from '../../../contract/bookmarks.ts';
import { BookResults } from '../../../contract/books.ts';
import { TaskPage } from '../../../contract/tasks.ts';
import { multipart } from '../test/multipart.ts';
import { runOrganiserCli } from '../test/organiser-cli.ts';
import { killHard, type ServerProcess, startServerProcess } from '../test/server-process.ts';
import { startTestSmtp } from '../test/test-smtp.ts';

const CATALOGUE = path.join(import.meta.dirname, '../books/fixtures/calibre/library.json');
const CATALOGUE_BOOKS = 15;
const PENDING_TASKS = 5;
/** How far ahead the pending notices fall due: after the backup and the first server's stop, before the restored one is long up. */
const PENDING_IN_MS = 25_000;

/** A signed-in account on a running server: its calls, parsed with the contract, and its refresh cookie. */
async function account(server: ServerProcess, body: { email: string; password: string; displayName: string }) {
  const response = await fetch(`${server.baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const { idToken } = AuthReply.parse(await response.json());
  const refreshCookie = /organiser_refresh=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0] ?? '';
  return { refreshCookie, ...calls(server, idToken) };
}

function calls(server: ServerProcess, idToken: string) {
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${idToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, `${method} ${url}: ${await response.clone().text()}`).toBe(200);
    return response.json() as Promise<unknown>;
  };
  return {
    idToken,
    call,
    async bookmark(title: string, link: string) {
      const created = Bookmark.parse(await call('POST', '/bookmarks/', { title, link, tags: ['kept'] }));
      return Bookmark.parse(await call('POST', '/api/bookmarks/', created));
    },
    /** Every page of the list, and the total it reports. */
    async bookmarks() {
      const items: Bookmark[] = [];
      let page: BookmarkPage | undefined;
      do {
        page = BookmarkPage.parse(await call('GET', '/bookmarks/?pageSize=100', undefined, page ? { pageCursor: page.cursor } : {}));
        items.push(...page.items);
      } while (page.cursor !== NO_MORE_RESULTS);
      return { items, total: page.total };
    },
    search: async (word: string) => BookmarkSearchResult.parse(await call('POST', '/api/bookmarks/query', { key_words: [word] })),
    task: (name: string, due: number) =>
      call('POST', '/schedule', { name, first_schedule_time: new Date(due).toISOString(), overdue_notice: false }),
    tasks: async () => TaskPage.parse(await call('GET', '/schedule?status=all&pageSize=100')),
    books: async (keys: string) => BookResults.parse(await call('GET', `/api/books?keys=${encodeURIComponent(keys)}&size=100`)),
  };
}

async function waitFor(what: string, done: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms / 1000} s for ${what}`);
    await sleep(100);
  }
}

describe('backup of a running installation, restored into a new data folder', () => {
  it('has every account, bookmark, index entry, task and book, and sends each pending notice once', { timeout: 240_000 }, async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-round-trip-'));
    const smtp = await startTestSmtp();
    const env = { SMTP_URL: smtp.url, ALLOW_SIGNUP: 'true' };
    const first = await startServerProcess(env);
    let restored: ServerProcess | undefined;
    try {
      const owner = await account(first, { email: 'owner@example.org', password: 'the owner password', displayName: 'Owner' });
      const busy = await account(first, { email: 'busy@example.org', password: 'the busy password', displayName: 'Busy' });

      const upload = multipart([['name', 'replace'], ['file', fs.readFileSync(CATALOGUE), 'library.json']]);
      const loaded = await fetch(`${first.baseUrl}/api/books/index`, {
        method: 'POST',
        headers: { ...upload.headers, authorization: `Bearer ${owner.idToken}` },
        body: upload.payload,
      });
      expect(loaded.status, await loaded.clone().text()).toBe(200);
      expect(((await owner.books('')).total)).toBe(CATALOGUE_BOOKS);

      for (const word of ['aardvark', 'bassoon', 'cormorant']) await owner.bookmark(`All about the ${word}`, `https://${word}.example.org/`);

      // One notice goes before the backup: the restored installation must not send it again.
      await owner.task('Sent before the backup', Date.now() + 500);
      await waitFor('the first notice', () => smtp.received.length === 1, 30_000);
      const pendingDue = Date.now() + PENDING_IN_MS;
      for (let i = 0; i < PENDING_TASKS; i += 1) await owner.task(`Pending ${i}`, pendingDue);

      // The backup runs while another account writes bookmarks and searches the catalogue.
      let serving = true;
      let served = 0;
      const traffic = (async () => {
        while (serving) {
          await busy.bookmark(`Written during the backup ${served}`, `https://busy.example.org/${served}`);
          await busy.books('miserables');
          served += 1;
        }
      })();
      await sleep(300);
      const file = path.join(folder, 'organiser-backup.sqlite');
      const backup = await runOrganiserCli(['backup', file], { DATA_DIR: first.dataDir });
      await sleep(300);
      serving = false;
      await traffic;
      expect(backup.code, backup.stderr).toBe(0);
      expect(served).toBeGreaterThan(0);

      await first.stop();
      expect(Date.now(), 'the first server ran past the pending notices; the machine is too slow for this test').toBeLessThan(pendingDue - 2_000);
      expect(smtp.received.map((mail) => mail.subject)).toEqual(['Task due: Sent before the backup']);

      const dataDir = path.join(folder, 'restored-data');
      const restore = await runOrganiserCli(['restore', file], { DATA_DIR: dataDir });
      expect(restore.code, restore.stderr).toBe(0);
      restored = await startServerProcess({ ...env, DATA_DIR: dataDir });

      // Accounts: passwords, and sessions, since the signing key and the sessions are in the database.
      const signIn = await fetch(`${restored.baseUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.org', password: 'the owner password' }),
      });
      expect(signIn.status).toBe(200);
      const refreshed = await fetch(`${restored.baseUrl}/auth/refresh`, { method: 'POST', headers: { cookie: owner.refreshCookie } });
      expect(refreshed.status).toBe(200);
      const ownerAgain = calls(restored, owner.idToken);
      const busyAgain = calls(restored, busy.idToken);

      const ownerBookmarks = await ownerAgain.bookmarks();
      expect(ownerBookmarks.items.map((b) => b.title).sort()).toEqual(['All about the aardvark', 'All about the bassoon', 'All about the cormorant']);
      expect(ownerBookmarks.total).toBe(3);
      expect((await ownerAgain.search('bassoon')).bookmarks.map((b) => b.link)).toEqual(['https://bassoon.example.org/']);

      // The copy is of one moment: the busy account's count, rows and index agree with each other.
      const busyBookmarks = await busyAgain.bookmarks();
      expect(busyBookmarks.items.length).toBeGreaterThan(0);
      expect(busyBookmarks.total).toBe(busyBookmarks.items.length);
      const indexed = (await busyAgain.search('written')).total_count;
      expect(indexed).toBeGreaterThanOrEqual(busyBookmarks.total - 1);
      expect(indexed).toBeLessThanOrEqual(busyBookmarks.total);

      expect((await ownerAgain.books('')).total).toBe(CATALOGUE_BOOKS);
      expect((await ownerAgain.books('miserables')).books.map((b) => b.title)).toEqual(['Les Misérables']);

      const tasks = await ownerAgain.tasks();
      expect(tasks.tasks.map((task) => task.name).sort()).toEqual([
        ...Array.from({ length: PENDING_TASKS }, (_, i) => `Pending ${i}`),
        'Sent before the backup',
      ]);

      await waitFor('the pending notices', () => smtp.received.length >= 1 + PENDING_TASKS, PENDING_IN_MS + 30_000);
      // Anything sent twice would arrive now.
      await sleep(2_000);
      expect(smtp.received.map((mail) => mail.subject).sort()).toEqual([
        ...Array.from({ length: PENDING_TASKS }, (_, i) => `Task due: Pending ${i}`),
        'Task due: Sent before the backup',
      ]);
      expect(new Set(smtp.received.map((mail) => mail.messageId)).size).toBe(1 + PENDING_TASKS);
    } finally {
      await first.stop();
      if (restored) await killHard(restored.child);
      await smtp.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
