import { Migrator, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { Bookmark, BookmarkPage } from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { bookmarkFixture, bookmarksByLink, importBookmarks } from '../test/bookmark-import.ts';
import { type BookmarksClient, bookmarksClient } from '../test/bookmarks-client.ts';
import { migrate, openStorage } from '../storage/database.ts';
import { migrationProvider } from '../storage/migration-provider.ts';
import { createTestDatabase, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const MINUTE = 60_000;

/** Read later (issue 39): unread, read and archived, the Unread list, and a search filtered by state. */
describe.each(testDialects)('bookmark read-later states on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    return t.close;
  });

  const newUser = async () => bookmarksClient(t.app, (await registerUser(t.app)).idToken);
  const setState = (user: BookmarksClient, id: number, body: unknown) =>
    t.app.inject({ method: 'PUT', url: `/bookmarks/${id}/state`, payload: body as object, headers: user.headers });
  const marked = async (user: BookmarksClient, id: number, state: string) => {
    const response = await setState(user, id, { state });
    expect(response.statusCode, response.body).toBe(200);
    return Bookmark.parse(response.json());
  };
  const links = (page: BookmarkPage) => page.items.map((item) => item.link);

  it('makes a new bookmark unread; marking it read keeps its update date and moves it from the Unread list to Read', async () => {
    const alice = await newUser();
    const kept = await alice.create({ title: 'Kept', link: 'https://example.org/kept' });
    const article = await alice.create({ title: 'Article', link: 'https://example.org/article' });
    expect(article.state).toBe('unread');
    t.clock.advance(MINUTE);
    const read = await marked(alice, article.id, 'read');
    expect(read).toEqual({ ...article, state: 'read' });
    expect(Bookmark.parse((await alice.inject('GET', `/bookmarks/${article.id}`)).json()).state).toBe('read');
    const unread = await alice.list({ state: 'unread' });
    expect(links(unread)).toEqual([kept.link]);
    expect(unread.total).toBe(1);
    expect(links(await alice.list({ state: 'read' }))).toEqual([article.link]);
    const all = await alice.list();
    expect(links(all)).toEqual([article.link, kept.link]);
    expect(all.total).toBe(2);
  });

  it('archives and unarchives, and the archived list counts only those', async () => {
    const alice = await newUser();
    const a = await alice.create({ title: 'A', link: 'https://example.org/a' });
    await alice.create({ title: 'B', link: 'https://example.org/b' });
    await marked(alice, a.id, 'archived');
    const archived = await alice.list({ state: 'archived' });
    expect(links(archived)).toEqual([a.link]);
    expect(archived.total).toBe(1);
    expect((await alice.list({ state: 'unread' })).total).toBe(1);
    await marked(alice, a.id, 'unread');
    expect((await alice.list({ state: 'archived' })).total).toBe(0);
    expect((await alice.list({ state: 'unread' })).total).toBe(2);
  });

  it.each([
    [{ state: 'done' }, 'State must be one of unread, read, archived'],
    [{ state: 7 }, 'State must be one of unread, read, archived'],
    [{}, 'State must be one of unread, read, archived'],
    [{ state: 'read', title: 'x' }, 'Unrecognized key: "title"'],
  ])('refuses %j with 400 "%s" and changes nothing', async (body, expected) => {
    const alice = await newUser();
    const bookmark = await alice.create({ title: 'A', link: 'https://example.org/a' });
    const response = await setState(alice, bookmark.id, body);
    expect(response.statusCode).toBe(400);
    expect(ErrorReply.parse(response.json()).message).toBe(expected);
    expect(Bookmark.parse((await alice.inject('GET', `/bookmarks/${bookmark.id}`)).json())).toEqual(bookmark);
  });

  it('refuses a list filtered by an unknown state with 400', async () => {
    const alice = await newUser();
    const response = await alice.inject('GET', '/bookmarks/?state=later');
    expect(response.statusCode).toBe(400);
    expect(ErrorReply.parse(response.json()).message).toBe('State must be one of unread, read, archived');
  });

  it('answers 404 for another user’s bookmark, and 404 for one that is not there, changing nothing', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const hers = await alice.create({ title: 'Hers', link: 'https://example.org/hers' });
    expect((await setState(bob, hers.id, { state: 'read' })).statusCode).toBe(404);
    expect((await setState(bob, hers.id + 1000, { state: 'read' })).statusCode).toBe(404);
    expect(Bookmark.parse((await alice.inject('GET', `/bookmarks/${hers.id}`)).json()).state).toBe('unread');
    expect((await bob.list({ state: 'unread' })).total).toBe(0);
  });

  it('keeps the state when the whole bookmark is saved with an older one (PUT /bookmarks/{id})', async () => {
    const alice = await newUser();
    const bookmark = await alice.create({ title: 'A', link: 'https://example.org/a' });
    await marked(alice, bookmark.id, 'read');
    const response = await alice.inject('PUT', `/bookmarks/${bookmark.id}`, { ...bookmark, title: 'A again' });
    expect(response.statusCode, response.body).toBe(200);
    expect(Bookmark.parse(response.json())).toMatchObject({ title: 'A again', state: 'read' });
  });

  it('filters by tag and state together, counted, page after page', async () => {
    const alice = await newUser();
    const made = [];
    for (const n of [1, 2, 3, 4]) {
      made.push(await alice.create({ title: `T${n}`, link: `https://example.org/${n}`, tags: n % 2 === 0 ? 'Even' : 'odd' }));
      t.clock.advance(1000);
    }
    await marked(alice, made[1]!.id, 'read');
    const first = await alice.list({ tag: 'even', state: 'unread', pageSize: '1' });
    expect(links(first)).toEqual(['https://example.org/4']);
    expect(first.total).toBe(1);
    expect((await alice.list({ tag: 'even', state: 'unread', pageSize: '1' }, first.cursor)).items).toEqual([]);
    const unread = await alice.list({ state: 'unread', pageSize: '2' });
    expect(links(unread)).toEqual(['https://example.org/4', 'https://example.org/3']);
    expect(links(await alice.list({ state: 'unread', pageSize: '2' }, unread.cursor))).toEqual(['https://example.org/1']);
    expect(unread.total).toBe(3);
    // The groups stay those of the whole collection, as with a tag or dates.
    expect(unread.tag_groups).toEqual([
      { key: 'Even', doc_count: 2 },
      { key: 'odd', doc_count: 2 },
    ]);
  });

  it('searches the index within one state, its groups counting those matches, and sees a state change at once', async () => {
    const alice = await newUser();
    const one = await alice.createIndexed({ title: 'Rust one', link: 'https://a.example/1', tags: 'rust' });
    const two = await alice.createIndexed({ title: 'Rust two', link: 'https://b.example/2', tags: 'rust, async' });
    await alice.createIndexed({ title: 'Rust three', link: 'https://b.example/3', tags: 'rust' });
    expect((await alice.search({ key_words: ['rust'] })).total).toBe(3);
    await marked(alice, two.id, 'read');
    const read = await alice.search({ key_words: ['rust'], state: 'read' });
    expect(read.bookmarks.map((bookmark) => bookmark.id)).toEqual([two.id]);
    expect(read.bookmarks[0]).toMatchObject({ state: 'read', indexed: true });
    expect(read.host_groups).toEqual([{ key: 'b.example', doc_count: 1 }]);
    expect(read.tag_groups).toEqual([
      { key: 'async', doc_count: 1 },
      { key: 'rust', doc_count: 1 },
    ]);
    const unread = await alice.search({ key_words: ['rust'], state: 'unread' });
    expect(unread.total).toBe(2);
    await marked(alice, one.id, 'archived');
    expect((await alice.search({ key_words: ['rust'], state: 'unread' })).total).toBe(1);
    expect((await alice.search({ key_words: ['rust'], state: 'archived' })).bookmarks.map((bookmark) => bookmark.id)).toEqual([one.id]);
    const bad = await alice.inject('POST', '/api/bookmarks/query', { key_words: ['rust'], state: 'later' });
    expect(bad.statusCode).toBe(400);
  });

  it('imports linkding’s TOREAD="1" as unread and the rest as read, and exports unread ones with TOREAD="1"', async () => {
    const carol = await newUser();
    await importBookmarks(t.app, carol, bookmarkFixture('linkding-bookmarks.html'));
    const saved = await bookmarksByLink(carol);
    expect(saved.get('https://github.com/sissbruecker/linkding')?.state).toBe('unread');
    expect(saved.get('https://linkding.link/')?.state).toBe('read');
    const file = (await carol.inject('GET', '/bookmarks/export')).body;
    expect(file).toMatch(/HREF="https:\/\/github.com\/sissbruecker\/linkding"[^>]* TOREAD="1"/);
    expect(file).not.toMatch(/HREF="https:\/\/linkding.link\/"[^>]* TOREAD/);
  });

  it('makes the bookmarks saved before 0034 read, and their index entries with them', async () => {
    const database = await createTestDatabase(dialect);
    const old = await openStorage(database);
    try {
      const migrator = new Migrator({
        db: old.db,
        provider: migrationProvider(dialect),
        ...(database.postgresSchema ? { migrationTableSchema: database.postgresSchema } : {}),
      });
      expect((await migrator.migrateTo('0032-shelves')).error).toBeUndefined();
      await old.db
        .insertInto('users')
        .values({ id: 'u1', email: 'u1@example.org', display_name: 'U', photo: null, password_hash: null, timezone: null, is_admin: 0, created_at: 0, updated_at: 0 } as never)
        .execute();
      await old.db
        .insertInto('bookmarks')
        // The table as 0032 left it, without a state.
        .values({ id: 1, owner_id: 'u1', title: 'Old', link: 'https://x.example.org/', link_key: 'https://x.example.org/', host: 'x.example.org', tags: '[]', note: null, create_date: 1, update_date: 1 } as never)
        .execute();
      const search = dialect === 'postgres' ? sql`, search` : sql``;
      const words = dialect === 'postgres' ? sql`, to_tsvector('simple', 'old')` : sql``;
      await sql`insert into bookmark_index (bookmark_id, owner_id, host, tags, create_date, update_date ${search})
        values (1, 'u1', 'x.example.org', '[]', 1, 1 ${words})`.execute(old.db);

      await migrate(old);
      expect(await old.db.selectFrom('bookmarks').select('read_state').execute()).toEqual([{ read_state: 'read' }]);
      expect(await old.db.selectFrom('bookmark_index').select('read_state').execute()).toEqual([{ read_state: 'read' }]);
    } finally {
      await old.close();
      await database.drop();
    }
  });
});
