import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookmarkLookup, BookmarkPreview } from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { bookmarksClient } from '../test/bookmarks-client.ts';
import { html, type PageServer, startPageServer } from '../test/page-server.ts';
import { bearer, createTestDatabase, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { migrate, openStorage } from '../storage/database.ts';
import { migrationNames, migrationProvider } from '../storage/migration-provider.ts';

let pages: PageServer;
beforeAll(async () => {
  pages = await startPageServer({
    '/article': html('<head><title>An article</title><meta name="description" content="What it says"></head>'),
    '/long': html(`<title>${'t'.repeat(600)}</title>`),
  });
});
afterAll(() => pages.close());

describe.each(testDialects)('saving from anywhere on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let other: string;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    token = (await registerUser(t.app)).idToken;
    other = (await registerUser(t.app)).idToken;
    return t.close;
  });

  const message = (response: { json(): unknown }) => ErrorReply.parse(response.json()).message;

  describe('already saved?', () => {
    const lookup = async (link: string, as = token) => {
      const response = await t.app.inject({ url: '/bookmarks/lookup', query: { link }, headers: bearer(as) });
      expect(response.statusCode, response.body).toBe(200);
      return BookmarkLookup.parse(response.json()).bookmark;
    };

    it.each([
      ['https://example.org/page?q=1', 'HTTPS://Example.ORG:443/page?q=1'],
      ['http://example.org', 'http://EXAMPLE.org:80/'],
      ['http://example.org:8080/x', 'HTTP://example.org:8080/x'],
      ['https://www.example.net/', 'https://www.example.net'],
    ])('finds %s when asked for %s', async (saved, asked) => {
      const bookmark = await bookmarksClient(t.app, token).create({ title: saved, link: saved });
      expect((await lookup(asked))?.id).toBe(bookmark.id);
      expect((await lookup(saved))?.id).toBe(bookmark.id);
    });

    it.each([
      ['https://example.com/path', 'https://example.com/PATH'],
      ['https://example.com/port', 'https://example.com:8443/port'],
      ['https://example.com/scheme', 'http://example.com/scheme'],
      ['https://example.com/query?a=1', 'https://example.com/query?a=2'],
    ])('does not take %s for %s', async (saved, asked) => {
      await bookmarksClient(t.app, token).create({ title: saved, link: saved });
      expect(await lookup(asked)).toBeNull();
    });

    it('knows the links changed since they were saved, and only the owner’s', async () => {
      const bookmark = await bookmarksClient(t.app, token).create({ title: 'Moved', link: 'https://example.com/old' });
      const moved = await t.app.inject({ method: 'PUT', url: `/bookmarks/${bookmark.id}`, headers: bearer(token), payload: { ...bookmark, link: 'https://example.com/new' } });
      expect(moved.statusCode).toBe(200);
      expect(await lookup('https://EXAMPLE.com/old')).toBeNull();
      expect((await lookup('https://EXAMPLE.com/new'))?.id).toBe(bookmark.id);
      expect(await lookup('https://example.com/new', other)).toBeNull();
    });

    it('still saves a link that differs only in case of host, next to the first', async () => {
      const first = await bookmarksClient(t.app, token).create({ title: 'First', link: 'https://example.com/twice' });
      const second = await bookmarksClient(t.app, token).create({ title: 'Second', link: 'https://EXAMPLE.com/twice' });
      expect(second.id).not.toBe(first.id);
      expect((await lookup('https://example.com/twice'))?.id).toBe(first.id);
    });

    it('answers 400 without a link', async () => {
      const response = await t.app.inject({ url: '/bookmarks/lookup', headers: bearer(token) });
      expect(response.statusCode).toBe(400);
      expect(message(response)).toContain('link is required');
    });
  });

  it('gives the bookmarks stored before the link keys their keys', async () => {
    const database = await createTestDatabase(dialect);
    const old = await openStorage(database);
    try {
      const names = await migrationNames();
      const before = names[names.findIndex((name) => name.endsWith('-api-tokens-and-link-keys')) - 1];
      const migrator = new Migrator({
        db: old.db,
        provider: migrationProvider(dialect),
        ...(database.postgresSchema ? { migrationTableSchema: database.postgresSchema } : {}),
      });
      expect((await migrator.migrateTo(before ?? '')).error).toBeUndefined();
      await old.db
        .insertInto('users')
        // The table as it was before, without the later columns.
        .values({ id: 'u1', email: 'u1@example.org', display_name: 'U', photo: null, password_hash: null, timezone: null, is_admin: 0, created_at: 0, updated_at: 0 } as never)
        .execute();
      const links = ['HTTPS://Example.ORG:443', 'http://example.org:8080/a#part', 'https://example.org/b'];
      for (const [i, link] of links.entries()) {
        await old.db
          .insertInto('bookmarks')
          // The table as it was before, without link_key.
          .values({ id: i + 1, owner_id: 'u1', title: 'Old', link, host: 'example.org', tags: '[]', note: null, create_date: 0, update_date: 0 } as never)
          .execute();
      }
      await migrate(old);
      const keys = await old.db.selectFrom('bookmarks').select('link_key').orderBy('id').execute();
      expect(keys.map((row) => row.link_key)).toEqual(['https://example.org/', 'http://example.org:8080/a#part', 'https://example.org/b']);
    } finally {
      await old.close();
      await database.drop();
    }
  });

  describe('the page preview call', () => {
    it('refuses pages on the server’s own network while PREVIEW_ALLOW_PRIVATE is off (the default)', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/bookmarks/preview', headers: bearer(token), payload: { link: `${pages.origin}/article` } });
      expect(response.statusCode).toBe(422);
      expect(message(response)).toBe('link: the page is on a private or local address, which the server does not visit');
    });

    it('refuses a link that is not http(s) with 400, and asks for a sign-in', async () => {
      const ftp = await t.app.inject({ method: 'POST', url: '/bookmarks/preview', headers: bearer(token), payload: { link: 'ftp://example.org/' } });
      expect(ftp.statusCode).toBe(400);
      expect((await t.app.inject({ method: 'POST', url: '/bookmarks/preview', payload: { link: 'https://example.org/' } })).statusCode).toBe(401);
    });
  });
});

describe.each(testDialects)('the page preview with PREVIEW_ALLOW_PRIVATE on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', PREVIEW_ALLOW_PRIVATE: 'true' } });
    return t.close;
  });

  const preview = async (token: string, link: string) =>
    t.app.inject({ method: 'POST', url: '/bookmarks/preview', headers: bearer(token), payload: { link } });

  it('gives the page’s title and description as title and note', async () => {
    const { idToken } = await registerUser(t.app);
    const response = await preview(idToken, `${pages.origin}/article`);
    expect(response.statusCode, response.body).toBe(200);
    expect(BookmarkPreview.parse(response.json())).toEqual({ title: 'An article', note: 'What it says' });
  });

  it('cuts a title to what a bookmark keeps', async () => {
    const { idToken } = await registerUser(t.app);
    expect(BookmarkPreview.parse((await preview(idToken, `${pages.origin}/long`)).json()).title).toHaveLength(500);
  });

  it('answers 429 past 3 previews a second for one user, and not for another', async () => {
    const { idToken } = await registerUser(t.app);
    const statuses = await Promise.all(Array.from({ length: 5 }, () => preview(idToken, `${pages.origin}/article`)));
    const refused = statuses.filter((response) => response.statusCode === 429);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(refused[0]?.headers['retry-after']).toBeDefined();
    expect(ErrorReply.parse(refused[0]?.json()).message).toMatch(/^Too many page previews/);
    const someoneElse = (await registerUser(t.app)).idToken;
    expect((await preview(someoneElse, `${pages.origin}/article`)).statusCode).toBe(200);
  });
});
