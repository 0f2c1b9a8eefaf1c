import { beforeAll, describe, expect, it } from 'vitest';
import { Bookmark } from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { FOLDING_EXAMPLES } from '../search/folding-examples.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { type BookmarksClient, bookmarksClient } from '../test/bookmarks-client.ts';

const MINUTE = 60 * 1000;

describe.each(testDialects)('bookmark search index on %s', (dialect) => {
  let t: TestApp;
  let alice: BookmarksClient;
  let bob: BookmarksClient;
  const made: Record<string, Bookmark> = {};

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    alice = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    bob = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    const drafts = {
      hugo: { title: 'Les Misérables — Victor Hugo', link: 'https://fr.wikipedia.org/wiki/Les_Mis%C3%A9rables', tags: 'books, french' },
      war: { title: 'Война и мир', link: 'https://ru.wikipedia.org/wiki/War', tags: 'books russian', note: 'Tolstoy’s novel' },
      fts: { title: 'SQLite FTS5 Extension', link: 'https://sqlite.org/fts5.html', tags: 'search, sqlite', note: 'prefix indexes and bm25' },
      pg: { title: 'PostgreSQL: Full Text Search', link: 'https://www.postgresql.org/docs/current/textsearch.html', tags: 'search, postgres' },
      cpp: { title: 'C++ (AND) "quotes" * NEAR', link: 'https://isocpp.org/faq', tags: 'c++' },
      mdn: { title: 'MDN Web Docs', link: 'https://developer.mozilla.org/en-US/', tags: 'reference', note: 'search the web platform' },
    };
    for (const [name, draft] of Object.entries(drafts)) {
      made[name] = await alice.createIndexed(draft);
      t.clock.advance(MINUTE);
    }
    await bob.createIndexed({ title: 'Bob searches too', link: 'https://sqlite.org/bob', tags: 'search' });
    return t.close;
  });

  const titles = (result: { bookmarks: Bookmark[] }) => result.bookmarks.map((bookmark) => bookmark.title);

  describe('index entries', () => {
    it('tells an indexed bookmark (200, indexed: true) from one that is not (404)', async () => {
      const plain = await alice.create({ title: 'Not indexed yet', link: 'https://example.org/not-yet' });
      expect((await alice.inject('GET', `/api/bookmarks/${plain.id}`)).statusCode).toBe(404);
      expect((await alice.search({ key_words: ['indexed'] })).total_count).toBe(0);
      const entry = await alice.index(plain);
      expect(entry).toEqual({ ...plain, indexed: true });
      expect((await alice.inject('GET', `/api/bookmarks/${plain.id}`)).json()).toEqual({ ...plain, indexed: true });
      expect(titles(await alice.search({ key_words: ['indexed'] }))).toEqual(['Not indexed yet']);
    });

    it('keeps what was indexed until the bookmark is indexed again, and indexes it as stored', async () => {
      const bookmark = await alice.createIndexed({ title: 'Draft heading', link: 'https://example.org/draft', tags: 'drafts' });
      const saved = Bookmark.parse((await alice.inject('PUT', `/bookmarks/${bookmark.id}`, { ...bookmark, title: 'Final heading' })).json());
      expect(titles(await alice.search({ key_words: ['draft'] }))).toEqual(['Draft heading']);
      // A body that differs from the stored bookmark indexes the stored one.
      await alice.index({ ...saved, title: 'Never saved' });
      expect(titles(await alice.search({ key_words: ['heading'] }))).toEqual(['Final heading']);
      expect((await alice.search({ key_words: ['draft'], fields: ['title'] })).total_count).toBe(0);
      expect((await alice.search({ key_words: ['never'] })).total_count).toBe(0);
    });

    it('refuses an invalid bookmark body with 400', async () => {
      const response = await alice.inject('POST', '/api/bookmarks/', { id: 'one', title: 'x', link: 'https://example.org' });
      expect(response.statusCode).toBe(400);
      expect(ErrorReply.parse(response.json()).message).toContain('id: must be a number');
    });
  });

  describe('words', () => {
    it('requires every word, each as a prefix, in any chosen field', async () => {
      // A prefix of a word, not of any part of it: 'sql' finds SQLite but not PostgreSQL.
      expect(titles(await alice.search({ key_words: ['sql'] }))).toEqual(['SQLite FTS5 Extension']);
      expect(titles(await alice.search({ key_words: ['search', 'fts'] }))).toEqual(['SQLite FTS5 Extension']);
      expect(titles(await alice.search({ key_words: ['full', 'text', 'postgres'] }))).toEqual(['PostgreSQL: Full Text Search']);
      expect(titles(await alice.search({ key_words: ['search'] }))).toEqual(['MDN Web Docs', 'PostgreSQL: Full Text Search', 'SQLite FTS5 Extension']);
    });

    it('folds case and accents, in every script', async () => {
      expect(titles(await alice.search({ key_words: ['MISERABLES'] }))).toEqual(['Les Misérables — Victor Hugo']);
      expect(titles(await alice.search({ key_words: ['misé'] }))).toEqual(['Les Misérables — Victor Hugo']);
      expect(titles(await alice.search({ key_words: ['ВОЙНА'] }))).toEqual(['Война и мир']);
    });

    it('folds the Latin letters that NFKD leaves whole, as the books do', async () => {
      const carol = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
      for (const [n, [written]] of FOLDING_EXAMPLES.entries()) {
        await carol.createIndexed({ title: written, link: `https://example.org/words/${n}`, tags: written });
      }
      for (const [written, typed] of FOLDING_EXAMPLES) {
        expect(titles(await carol.search({ key_words: [typed] })), typed).toEqual([written]);
        expect(titles(await carol.search({ key_words: [written.toUpperCase()], fields: ['tags'] })), written).toEqual([written]);
      }
    });

    it('treats search syntax as literal separators, never as an error', async () => {
      expect(titles(await alice.search({ key_words: ['c++', '(AND)'] }))).toEqual(['C++ (AND) "quotes" * NEAR']);
      expect(titles(await alice.search({ key_words: ['"quotes"', 'NEAR*', '*'] }))).toEqual(['C++ (AND) "quotes" * NEAR']);
      expect(titles(await alice.search({ key_words: ["'", ':*', '&|!'] }))).toEqual([]);
      expect(titles(await alice.search({ key_words: ['OR', 'NOT'], fields: ['title'] }))).toEqual([]);
      expect(titles(await alice.search({ key_words: ['NOT'], fields: ['title'] }))).toEqual(['Not indexed yet']);
    });

    it('searches only the chosen fields: title, link, note, tags', async () => {
      expect(titles(await alice.search({ key_words: ['wikipedia'], fields: ['link'] }))).toHaveLength(2);
      expect(titles(await alice.search({ key_words: ['wikipedia'], fields: ['title'] }))).toEqual([]);
      expect(titles(await alice.search({ key_words: ['tolstoy'], fields: ['note'] }))).toEqual(['Война и мир']);
      expect(titles(await alice.search({ key_words: ['search'], fields: ['tags'] }))).toEqual(['PostgreSQL: Full Text Search', 'SQLite FTS5 Extension']);
      expect(titles(await alice.search({ key_words: ['search'], fields: ['title', 'note'] }))).toEqual(['MDN Web Docs', 'PostgreSQL: Full Text Search']);
    });

    it('never finds another user’s entries', async () => {
      expect(titles(await bob.search({ key_words: ['search'] }))).toEqual(['Bob searches too']);
      expect(titles(await alice.search({ key_words: ['bob'] }))).toEqual([]);
    });
  });

  describe('filters, groups and paging', () => {
    it('groups the matching set by host and tag, most first', async () => {
      const result = await alice.search({ key_words: ['search'] });
      expect(result.host_groups).toEqual([
        { key: 'developer.mozilla.org', doc_count: 1 },
        { key: 'postgresql.org', doc_count: 1 },
        { key: 'sqlite.org', doc_count: 1 },
      ]);
      expect(result.tag_groups).toEqual([
        { key: 'search', doc_count: 2 },
        { key: 'postgres', doc_count: 1 },
        { key: 'reference', doc_count: 1 },
        { key: 'sqlite', doc_count: 1 },
      ]);
    });

    it('narrows by hosts and by tags (any of each), and the groups follow', async () => {
      const byHost = await alice.search({ key_words: ['wiki'], hosts: ['fr.wikipedia.org', 'elsewhere.org'] });
      expect(titles(byHost)).toEqual(['Les Misérables — Victor Hugo']);
      expect(byHost.host_groups).toEqual([{ key: 'fr.wikipedia.org', doc_count: 1 }]);
      expect(byHost.tag_groups).toEqual([{ key: 'books', doc_count: 1 }, { key: 'french', doc_count: 1 }]);
      const byTag = await alice.search({ key_words: ['s'], tags: ['russian', 'sqlite'] });
      expect(titles(byTag)).toEqual(['SQLite FTS5 Extension', 'Война и мир']);
      expect(byTag.total_count).toBe(2);
    });

    it('narrows by create and update time ranges', async () => {
      const start = made.fts!.create_date;
      const end = made.pg!.create_date;
      const created = await alice.search({ key_words: ['search'], create_time_range: { start, end } });
      expect(titles(created)).toEqual(['PostgreSQL: Full Text Search', 'SQLite FTS5 Extension']);
      expect(titles(await alice.search({ key_words: ['search'], create_time_range: { start: made.pg!.create_date } }))).toEqual([
        'MDN Web Docs',
        'PostgreSQL: Full Text Search',
      ]);
      const updated = await alice.search({ key_words: ['search'], update_time_range: { end: made.fts!.update_date } });
      expect(titles(updated)).toEqual(['SQLite FTS5 Extension']);
      const whole = { start: '1900-01-01T00:00:00Z', end: '2200-12-31' };
      expect((await alice.search({ key_words: ['search'], create_time_range: whole, update_time_range: whole })).total_count).toBe(
        (await alice.search({ key_words: ['search'] })).total_count,
      );
    });

    it('pages with from and size, the total counting every match', async () => {
      const first = await alice.search({ key_words: ['search'] }, { size: '2' });
      expect(first.total_count).toBe(3);
      expect(titles(first)).toEqual(['MDN Web Docs', 'PostgreSQL: Full Text Search']);
      const second = await alice.search({ key_words: ['search'] }, { from: '2', size: '2' });
      expect(titles(second)).toEqual(['SQLite FTS5 Extension']);
      expect(second.total_count).toBe(3);
      expect(second.bookmarks.every((bookmark) => bookmark.indexed === true)).toBe(true);
    });

    it('orders bookmarks made at the same moment by id, newest first, across pages', async () => {
      const twins = [];
      for (const n of [1, 2, 3]) twins.push(await alice.createIndexed({ title: `Zyzzyva twin ${n}`, link: `https://example.org/twin/${n}` }));
      const pages = [];
      for (const from of [0, 1, 2]) pages.push(...titles(await alice.search({ key_words: ['zyzzyva'] }, { from: String(from), size: '1' })));
      expect(pages).toEqual(['Zyzzyva twin 3', 'Zyzzyva twin 2', 'Zyzzyva twin 1']);
      expect(twins.map((twin) => twin.create_date)).toEqual([twins[0]!.create_date, twins[0]!.create_date, twins[0]!.create_date]);
    });

    it.each([
      [{ key_words: [] }, 'key words are required'],
      [{}, 'key words are required'],
      [{ key_words: ['a'], fields: ['body'] }, 'fields.0: must be among title, link, note, tags'],
      [{ key_words: ['a'], create_time_range: { start: '2026-13-01' } }, 'Created from must be an ISO date'],
      [{ key_words: ['a'], create_time_range: { start: '0001-01-01' } }, 'Created from must be between 1900-01-01 and 2200-12-31'],
      [{ key_words: ['a'], update_time_range: { end: '2200-12-31T23:00:00-05:00' } }, 'Updated until must be between 1900-01-01 and 2200-12-31'],
      [{ key_words: ['a'], hosts: 'example.org' }, 'Hosts must be a list of hosts'],
      [{ key_words: ['a'], everything: true }, 'Unrecognized key: "everything"'],
    ])('refuses the query spec %j with 400', async (spec, expected) => {
      const response = await alice.inject('POST', '/api/bookmarks/query', spec);
      expect(response.statusCode).toBe(400);
      expect(ErrorReply.parse(response.json()).message).toContain(expected);
    });

    it('refuses bad paging parameters with 400', async () => {
      for (const url of ['/api/bookmarks/query?size=0', '/api/bookmarks/query?size=101', '/api/bookmarks/query?from=-1', '/api/bookmarks/query?from=x']) {
        expect((await alice.inject('POST', url, { key_words: ['a'] })).statusCode).toBe(400);
      }
    });
  });
});
