import { beforeAll, describe, expect, it } from 'vitest';
import { Bookmark, NO_MORE_RESULTS } from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { type BookmarksClient, bookmarksClient } from '../test/bookmarks-client.ts';

// Bearer tokens last 15 minutes of the test clock: a whole file moves it by a few minutes only.
const MINUTE = 60 * 1000;

describe.each(testDialects)('bookmarks on %s', (dialect) => {
  let t: TestApp;
  let alice: BookmarksClient;
  let bob: BookmarksClient;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    alice = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    bob = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    return t.close;
  });

  const message = async (response: { json(): unknown }) => ErrorReply.parse(response.json()).message;

  describe('create and read', () => {
    it('creates with trimmed fields, tags split as docs/behaviour/bookmarks.md says, times from the clock', async () => {
      const created = await alice.create({ title: '  Rust Book ', link: ' https://doc.rust-lang.org/book/ ', tags: ' rust,  learning , ', note: '  chapters  ' });
      expect(created).toEqual({
        id: created.id,
        title: 'Rust Book',
        link: 'https://doc.rust-lang.org/book/',
        tags: ['rust', 'learning'],
        note: 'chapters',
        create_date: new Date(t.clock.now()).toISOString(),
        update_date: new Date(t.clock.now()).toISOString(),
        state: 'unread',
      });
      expect(Bookmark.parse((await alice.inject('GET', `/bookmarks/${created.id}`)).json())).toEqual(created);
    });

    it('splits tags text without commas on whitespace, drops an empty note, accepts a list', async () => {
      const spaced = await alice.create({ title: 'Spaced', link: 'https://example.org/spaced', tags: '  a   b\tc ', note: '   ' });
      expect(spaced.tags).toEqual(['a', 'b', 'c']);
      expect(spaced).not.toHaveProperty('note');
      const listed = await alice.create({ title: 'Listed', link: 'https://example.org/listed', tags: [' x ', '', 'y', 'x'] });
      expect(listed.tags).toEqual(['x', 'y']);
    });

    it.each([
      [{ link: 'https://example.org/a' }, 'Title is required'],
      [{ title: '   ', link: 'https://example.org/a' }, 'Title is required'],
      [{ title: 'A' }, 'Link is required'],
      [{ title: 'A', link: 'ftp://example.org/file' }, 'Link must be a web address starting with http:// or https://'],
      [{ title: 'A', link: 'javascript:alert(1)' }, 'Link must be a web address starting with http:// or https://'],
      [{ title: 'A', link: 'not a url' }, 'Link must be a web address starting with http:// or https://'],
      [{ title: 'x'.repeat(501), link: 'https://example.org/a' }, 'Title must be at most 500 characters'],
      [{ title: 'A', link: 'https://example.org/a', tags: 't'.repeat(101) }, 'Each tag must be at most 100 characters'],
      [{ title: 'A', link: 'https://example.org/a', tags: 42 }, 'Tags must be a list of tags or a text'],
      [{ title: 'A', link: 'https://example.org/a', owner: 'someone' }, 'Unrecognized key: "owner"'],
    ])('refuses %j with 400 "%s" and stores nothing', async (body, expected) => {
      const before = (await alice.list({ pageSize: '100' })).items.length;
      const response = await alice.inject('POST', '/bookmarks/', body);
      expect(response.statusCode).toBe(400);
      expect(await message(response)).toContain(expected);
      expect((await alice.list({ pageSize: '100' })).items).toHaveLength(before);
    });

    it('refuses a link the user already has with 409, but another user may save it', async () => {
      await alice.create({ title: 'Twice', link: 'https://example.org/twice' });
      const again = await alice.inject('POST', '/bookmarks/', { title: 'Again', link: 'https://example.org/twice' });
      expect(again.statusCode).toBe(409);
      expect(await message(again)).toBe('You already have a bookmark for this link');
      expect((await bob.create({ title: 'Bob’s', link: 'https://example.org/twice' })).title).toBe('Bob’s');
    });

    it('answers 400 for a malformed id and 401 without a token', async () => {
      expect((await alice.inject('GET', '/bookmarks/abc')).statusCode).toBe(400);
      expect((await t.app.inject({ url: '/bookmarks/' })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'POST', url: '/api/bookmarks/query', payload: { key_words: ['a'] } })).statusCode).toBe(401);
    });
  });

  describe('update', () => {
    it('saves the whole bookmark with one field changed; update_date moves, create_date stays', async () => {
      const created = await alice.create({ title: 'Old title', link: 'https://example.org/update', tags: 'one' });
      t.clock.advance(MINUTE);
      const response = await alice.inject('PUT', `/bookmarks/${created.id}`, { ...created, title: 'New title' });
      expect(response.statusCode, response.body).toBe(200);
      const updated = Bookmark.parse(response.json());
      expect(updated).toEqual({ ...created, title: 'New title', update_date: new Date(t.clock.now()).toISOString() });
      const cleared = Bookmark.parse((await alice.inject('PUT', `/bookmarks/${created.id}`, { ...updated, note: '', tags: [] })).json());
      expect(cleared.tags).toEqual([]);
      expect(cleared).not.toHaveProperty('note');
    });

    it('refuses a body for another id, a taken link and invalid fields, changing nothing', async () => {
      const first = await alice.create({ title: 'First', link: 'https://example.org/first' });
      const second = await alice.create({ title: 'Second', link: 'https://example.org/second' });
      const wrongId = await alice.inject('PUT', `/bookmarks/${first.id}`, { ...second, title: 'X' });
      expect(wrongId.statusCode).toBe(400);
      const taken = await alice.inject('PUT', `/bookmarks/${second.id}`, { ...second, link: first.link });
      expect(taken.statusCode).toBe(409);
      const invalid = await alice.inject('PUT', `/bookmarks/${second.id}`, { ...second, link: 'mailto:me@example.org' });
      expect(invalid.statusCode).toBe(400);
      expect(Bookmark.parse((await alice.inject('GET', `/bookmarks/${second.id}`)).json())).toEqual(second);
    });
  });

  describe('ownership', () => {
    it('answers 404 on every route for another user’s bookmark, exactly as for an unknown id', async () => {
      const mine = await alice.createIndexed({ title: 'Private', link: 'https://example.org/private', tags: 'secret' });
      const unknown = { ...mine, id: mine.id + 100_000 };
      for (const target of [mine, unknown]) {
        const calls = [
          bob.inject('GET', `/bookmarks/${target.id}`),
          bob.inject('PUT', `/bookmarks/${target.id}`, { ...target, title: 'Taken over' }),
          bob.inject('GET', `/api/bookmarks/${target.id}`),
          bob.inject('POST', '/api/bookmarks/', { ...target, title: 'Taken over' }),
        ];
        for (const response of await Promise.all(calls)) {
          expect(response.statusCode, response.body).toBe(404);
          expect(await message(response)).toMatch(/not found$/);
        }
      }
      expect((await alice.inject('GET', `/bookmarks/${mine.id}`)).json()).toMatchObject({ title: 'Private' });
      expect((await bob.search({ key_words: ['private'] })).total_count).toBe(0);
      expect((await bob.list({ tag: 'secret' })).items).toEqual([]);
      expect((await bob.list()).tag_groups.map((group) => group.key)).not.toContain('secret');
    });
  });

  describe('list', () => {
    let carol: BookmarksClient;
    let made: Bookmark[];

    beforeAll(async () => {
      carol = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
      made = [];
      for (let n = 0; n < 7; n++) {
        made.push(await carol.create({ title: `Page ${n}`, link: `https://${n % 2 ? 'odd' : 'even'}.example.org/${n}`, tags: n % 3 === 0 ? 'three,all' : 'all' }));
        // Two bookmarks share each time, so the cursor must tell them apart by id.
        if (n % 2 === 1) t.clock.advance(MINUTE);
      }
    });

    it('pages newest first with an opaque cursor until NO_MORE_RESULTS', async () => {
      const seen: number[] = [];
      let cursor: string | undefined;
      for (let pages = 0; cursor !== NO_MORE_RESULTS; pages++) {
        const page = await carol.list({ pageSize: '3' }, cursor);
        expect(page.items.length).toBeLessThanOrEqual(3);
        seen.push(...page.items.map((item) => item.id));
        cursor = page.cursor;
        expect(pages).toBeLessThan(3);
      }
      expect(seen).toEqual(made.map((bookmark) => bookmark.id).reverse());
      const after = await carol.list({ pageSize: '3' }, NO_MORE_RESULTS);
      expect(after.items).toEqual([]);
      expect(after.cursor).toBe(NO_MORE_RESULTS);
    });

    it('keeps its place when bookmarks are added between pages', async () => {
      const first = await carol.list({ pageSize: '2' });
      const fresh = await carol.create({ title: 'Newer', link: 'https://even.example.org/newer', tags: 'all' });
      made.push(fresh);
      const second = await carol.list({ pageSize: '2' }, first.cursor);
      expect(second.items.map((item) => item.title)).toEqual(['Page 4', 'Page 3']);
    });

    it('filters by tag and by creation dates, and pages within the filter', async () => {
      const tagged = await carol.list({ tag: 'three', pageSize: '2' });
      expect(tagged.items.map((item) => item.title)).toEqual(['Page 6', 'Page 3']);
      const rest = await carol.list({ tag: 'three', pageSize: '2' }, tagged.cursor);
      expect(rest.items.map((item) => item.title)).toEqual(['Page 0']);
      expect(rest.cursor).toBe(NO_MORE_RESULTS);
      const start = made[2]!.create_date;
      const end = made[5]!.create_date;
      const dated = await carol.list({ start_date: start, end_date: end, pageSize: '10' });
      expect(dated.items.map((item) => item.title)).toEqual(['Page 5', 'Page 4', 'Page 3', 'Page 2']);
      const day = made[0]!.create_date.slice(0, 10);
      expect((await carol.list({ start_date: day, end_date: day, pageSize: '20' })).items).toHaveLength(made.length);
      expect((await carol.list({ start_date: '1900-01-01', end_date: '2200-12-31', pageSize: '20' })).items).toHaveLength(made.length);
    });

    it('replies the top hosts and tags of the collection with their counts', async () => {
      const page = await carol.list({ pageSize: '1' });
      expect(page.host_groups).toEqual([
        { key: 'even.example.org', doc_count: 5 },
        { key: 'odd.example.org', doc_count: 3 },
      ]);
      expect(page.tag_groups).toEqual([
        { key: 'all', doc_count: 8 },
        { key: 'three', doc_count: 3 },
      ]);
      const moved = made[1]!;
      await carol.inject('PUT', `/bookmarks/${moved.id}`, { ...moved, link: 'https://even.example.org/moved', tags: ['three'] });
      const after = await carol.list({ pageSize: '1' });
      expect(after.host_groups).toEqual([
        { key: 'even.example.org', doc_count: 6 },
        { key: 'odd.example.org', doc_count: 2 },
      ]);
      expect(after.tag_groups).toEqual([
        { key: 'all', doc_count: 7 },
        { key: 'three', doc_count: 4 },
      ]);
    });

    it.each([
      [{ pageSize: '0' }, 'Page size must be at least 1'],
      [{ pageSize: '101' }, 'Page size must be at most 100'],
      [{ pageSize: 'many' }, 'Page size must be a number'],
      [{ start_date: 'yesterday' }, 'Start date must be an ISO date or a date-time with a zone'],
      [{ start_date: '2026-02-30' }, 'Start date must be an ISO date or a date-time with a zone'],
      [{ start_date: '1899-12-31' }, 'Start date must be between 1900-01-01 and 2200-12-31'],
      [{ end_date: '2201-01-01T00:00:00Z' }, 'End date must be between 1900-01-01 and 2200-12-31'],
      [{ end_date: '9999-12-31' }, 'End date must be between 1900-01-01 and 2200-12-31'],
      [{ colour: 'red' }, 'Unrecognized key: "colour"'],
    ])('refuses the query %j with 400', async (query, expected) => {
      const response = await t.app.inject({ url: '/bookmarks/', query, headers: carol.headers });
      expect(response.statusCode).toBe(400);
      expect(await message(response)).toContain(expected);
    });

    it('refuses a cursor it did not give', async () => {
      for (const cursor of ['garbage', Buffer.from('1:2:3').toString('base64url'), 'MTox=']) {
        const response = await t.app.inject({ url: '/bookmarks/', headers: { ...carol.headers, pageCursor: cursor } });
        expect(response.statusCode).toBe(400);
        expect(await message(response)).toBe('pageCursor: not a cursor this server gave');
      }
    });
  });
});
