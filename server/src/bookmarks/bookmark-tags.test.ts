import { Migrator } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrate, openStorage } from '../storage/database.ts';
import { migrationProvider } from '../storage/migration-provider.ts';
import { buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';
import { bookmarksClient } from '../test/bookmarks-client.ts';

const MINUTE = 60_000;

describe.each(testDialects)('tags and totals on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    return async () => {
      await t.close();
      await database.drop();
    };
  });

  const someone = async () => bookmarksClient(t.app, (await registerUser(t.app)).idToken);

  it('lists every tag with its count, most used first, then by name; only the owner\'s', async () => {
    const erin = await someone();
    const other = await someone();
    await erin.create({ title: 'A', link: 'https://a.example.org/', tags: ['b-tag', 'common'] });
    await erin.create({ title: 'B', link: 'https://b.example.org/', tags: ['common', 'a-tag'] });
    await erin.create({ title: 'C', link: 'https://c.example.org/', tags: ['common', 'solo with space'] });
    await other.create({ title: 'D', link: 'https://d.example.org/', tags: ['common', 'theirs'] });
    expect(await erin.tags()).toEqual([
      { tag: 'common', count: 3 },
      { tag: 'a-tag', count: 1 },
      { tag: 'b-tag', count: 1 },
      { tag: 'solo with space', count: 1 },
    ]);
    expect(await (await someone()).tags()).toEqual([]);
  });

  it('takes "News" and "news" for one tag, spelled as first written, in counts, filters and searches', async () => {
    const finn = await someone();
    const first = await finn.createIndexed({ title: 'First', link: 'https://news.example.org/1', tags: 'News' });
    const second = await finn.createIndexed({ title: 'Second', link: 'https://news.example.org/2', tags: 'news, NEWS, daily' });
    expect(second.tags).toEqual(['News', 'daily']);
    expect((await finn.create({ title: 'Listed', link: 'https://news.example.org/3', tags: ['nEwS', 'news'] })).tags).toEqual(['News']);
    expect(await finn.tags()).toEqual([{ tag: 'News', count: 3 }, { tag: 'daily', count: 1 }]);
    expect((await finn.list()).tag_groups).toEqual([{ key: 'News', doc_count: 3 }, { key: 'daily', doc_count: 1 }]);

    for (const spelling of ['News', 'news', 'NEWS']) {
      const page = await finn.list({ tag: spelling });
      expect(page.items, spelling).toHaveLength(3);
      expect(page.total, spelling).toBe(3);
    }
    const found = await finn.search({ key_words: ['second'], tags: ['news'] });
    expect(found.bookmarks.map((bookmark) => bookmark.id)).toEqual([second.id]);
    expect(found.tag_groups).toEqual([{ key: 'News', doc_count: 1 }, { key: 'daily', doc_count: 1 }]);

    // The only bookmark with a tag may change its case; a tag others share keeps its spelling.
    const solo = await finn.create({ title: 'Solo', link: 'https://news.example.org/solo', tags: 'rust' });
    const renamed = await finn.inject('PUT', `/bookmarks/${solo.id}`, { ...solo, tags: 'Rust' });
    expect(renamed.json()).toMatchObject({ tags: ['Rust'] });
    const shared = await finn.inject('PUT', `/bookmarks/${first.id}`, { ...first, tags: 'NEWS' });
    expect(shared.json()).toMatchObject({ tags: ['News'] });
    expect(await finn.tags()).toEqual([
      { tag: 'News', count: 3 },
      { tag: 'Rust', count: 1 },
      { tag: 'daily', count: 1 },
    ]);
  });

  it('gives the list the whole count its filters match, on every page', async () => {
    const gina = await someone();
    const start = t.clock.now();
    for (let i = 0; i < 7; i++) {
      await gina.createIndexed({ title: `Day ${i}`, link: `https://days.example.org/${i}`, tags: i % 2 === 0 ? 'even' : 'odd' });
      t.clock.advance(MINUTE);
    }
    const first = await gina.list({ pageSize: '3' });
    expect(first.items).toHaveLength(3);
    expect(first.total).toBe(7);
    expect((await gina.list({ pageSize: '3' }, first.cursor)).total).toBe(7);
    expect((await gina.list({ tag: 'even', pageSize: '2' })).total).toBe(4);
    const minute = (n: number) => new Date(start + n * MINUTE).toISOString();
    expect((await gina.list({ start_date: minute(2), end_date: minute(4), pageSize: '1' })).total).toBe(3);
    expect((await gina.list({ start_date: minute(2), end_date: minute(4), tag: 'EVEN' })).total).toBe(2);
    expect((await gina.list({ tag: 'none such' })).total).toBe(0);
    const found = await gina.search({ key_words: ['day'] }, { size: '2' });
    expect(found.bookmarks).toHaveLength(2);
    expect([found.total, found.total_count]).toEqual([7, 7]);
  });

  it('merges the spellings of tags stored before 0010 into the first written, and counts each user\'s bookmarks', async () => {
    const database = await createTestDatabase(dialect);
    const old = await openStorage(database);
    try {
      const migrator = new Migrator({
        db: old.db,
        provider: migrationProvider(dialect),
        ...(database.postgresSchema ? { migrationTableSchema: database.postgresSchema } : {}),
      });
      expect((await migrator.migrateTo('0009-task-completions')).error).toBeUndefined();
      await old.db
        .insertInto('users')
        .values({ id: 'u1', email: 'u1@example.org', display_name: 'U', photo: null, password_hash: null, timezone: null, is_admin: 0, created_at: 0, updated_at: 0 } as never)
        .execute();
      const stored = [
        { id: 1, tags: ['News', 'a'], create_date: 1000 },
        { id: 2, tags: ['news', 'NEWS'], create_date: 2000 },
        { id: 3, tags: ['A', 'news'], create_date: 3000 },
      ];
      for (const { id, tags, create_date } of stored) {
        await old.db
          .insertInto('bookmarks')
          // The table as 0009 left it, before links had their compared form (0014).
          .values({ id, owner_id: 'u1', title: `B${id}`, link: `https://x.example.org/${id}`, host: 'x.example.org', tags: JSON.stringify(tags), note: null, create_date, update_date: create_date } as never)
          .execute();
        await old.db.insertInto('bookmark_tags').values(tags.map((tag) => ({ bookmark_id: id, owner_id: 'u1', tag, create_date }))).execute();
      }
      const facets = { News: 1, news: 2, NEWS: 1, a: 1, A: 1 };
      await old.db
        .insertInto('bookmark_facets' as never)
        .values([
          { owner_id: 'u1', kind: 'host', key: 'x.example.org', doc_count: 3 },
          ...Object.entries(facets).map(([key, doc_count]) => ({ owner_id: 'u1', kind: 'tag', key, doc_count })),
        ] as never)
        .execute();

      await migrate(old);
      const tagsOf = await old.db.selectFrom('bookmarks').select(['id', 'tags']).orderBy('id').execute();
      expect(tagsOf.map((row) => JSON.parse(row.tags) as string[])).toEqual([['News', 'a'], ['News'], ['a', 'News']]);
      const tagRows = await old.db.selectFrom('bookmark_tags').select(['bookmark_id', 'tag']).orderBy('bookmark_id').orderBy('tag').execute();
      expect(tagRows.map((row) => `${row.bookmark_id} ${row.tag}`)).toEqual(['1 News', '1 a', '2 News', '3 News', '3 a']);
      const counts = await old.db.selectFrom('bookmark_facets').select(['kind', 'key', 'folded', 'doc_count']).where('owner_id', '=', 'u1').orderBy('kind').orderBy('key').execute();
      expect(counts.map((row) => ({ ...row, doc_count: Number(row.doc_count) }))).toEqual([
        { kind: 'all', key: '', folded: '', doc_count: 3 },
        { kind: 'host', key: 'x.example.org', folded: 'x.example.org', doc_count: 3 },
        { kind: 'tag', key: 'News', folded: 'news', doc_count: 3 },
        { kind: 'tag', key: 'a', folded: 'a', doc_count: 2 },
      ]);
    } finally {
      await old.close();
      await database.drop();
    }
  });
});
