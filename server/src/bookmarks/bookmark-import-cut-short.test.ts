import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CutShortBookmarkImport, CurrentBookmarkImport } from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { bookmarkFixture, importBookmarks, uploadBookmarks } from '../test/bookmark-import.ts';
import { type BookmarksClient, bookmarksClient } from '../test/bookmarks-client.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { ALIVE_FOR_MS, createBookmarkImportsStore } from './bookmark-imports.store.ts';
import { MAX_OPEN_ELEMENTS } from './netscape-file-reader.ts';

const FIREFOX_FILE = bookmarkFixture('firefox-bookmarks.html');
const sha256 = (file: Buffer) => createHash('sha256').update(file).digest('hex');

/** Links, then folders nested past the bound, then more links. */
function deepAfterLinks(): string {
  const links = (from: number) => Array.from({ length: 30 }, (_, i) => `<DT><A HREF="https://example.org/${from + i}">Link ${from + i}</A>\n`).join('');
  const depth = MAX_OPEN_ELEMENTS;
  return `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${links(0)}${'<DT><H3>folder</H3>\n<DL><p>\n'.repeat(depth)}${'</DL><p>\n'.repeat(depth)}${links(30)}</DL>\n`;
}

describe.each(testDialects)('a bookmark import that stops before the end on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    return t.close;
  });

  async function user() {
    const registered = await registerUser(t.app);
    return { ownerId: registered.user.uid, client: bookmarksClient(t.app, registered.idToken) };
  }
  const current = async (client: BookmarksClient) =>
    CurrentBookmarkImport.parse((await t.app.inject({ url: '/bookmarks/import/progress', headers: client.headers })).json());
  const dismiss = (client: BookmarksClient, id: string) => t.app.inject({ method: 'DELETE', url: `/bookmarks/import/cut-short/${id}`, headers: client.headers });

  /** The row a server leaves when it is killed while the import writes, this many links in. */
  async function killedImport(ownerId: string, file: Buffer, imported: number) {
    const record = { id: randomUUID(), file_sha256: sha256(file), links: 11, imported, started_at: t.clock.now() };
    await createBookmarkImportsStore(t.storage.db).start(ownerId, record);
    return record;
  }

  it('refuses a file nested past the bound after links it could import, and changes nothing', async () => {
    const { client } = await user();
    const response = await uploadBookmarks(t.app, client, deepAfterLinks());
    expect(response.statusCode).toBe(400);
    expect(ErrorReply.parse(response.json()).message).toMatch(/^This bookmarks file nests more than 1000 elements inside one another \(line \d/);
    expect((await client.list()).total).toBe(0);
    expect((await current(client)).cut_short).toBeNull();
  });

  it('says an import was cut short once its server no longer renews it, until the same file is imported again', async () => {
    const { ownerId, client } = await user();
    const started = t.clock.now();
    const record = await killedImport(ownerId, FIREFOX_FILE, 3);
    // Another server may still be writing it.
    expect((await current(client)).cut_short).toBeNull();
    t.clock.advance(ALIVE_FOR_MS + 1);
    const cutShort: CutShortBookmarkImport = { id: record.id, started_at: new Date(started).toISOString(), links: 11, imported: 3 };
    expect((await current(client)).cut_short).toEqual(cutShort);

    await importBookmarks(t.app, client, '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://example.org/other">Other</A>\n</DL>\n');
    expect((await current(client)).cut_short).toEqual(cutShort);
    expect((await importBookmarks(t.app, client, FIREFOX_FILE)).imported).toBe(8);
    expect((await current(client)).cut_short).toBeNull();
  });

  it('forgets a cut-short import its owner dismisses, keeping its bookmarks; another user’s is not found', async () => {
    const { ownerId, client } = await user();
    const { client: other } = await user();
    await importBookmarks(t.app, client, FIREFOX_FILE);
    const record = await killedImport(ownerId, FIREFOX_FILE, 8);
    t.clock.advance(ALIVE_FOR_MS + 1);
    expect((await dismiss(other, record.id)).statusCode).toBe(404);
    expect((await dismiss(client, randomUUID())).statusCode).toBe(404);
    expect((await current(client)).cut_short?.id).toBe(record.id);
    expect((await dismiss(client, record.id)).statusCode).toBe(204);
    expect((await current(client)).cut_short).toBeNull();
    expect((await client.list()).total).toBe(8);
    expect((await dismiss(client, record.id)).statusCode).toBe(404);
  });
});
