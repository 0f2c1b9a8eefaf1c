import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply } from '../../../contract/errors.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { type BookmarksClient, bookmarksClient } from '../test/bookmarks-client.ts';

describe.each(testDialects)('deleting and bulk editing bookmarks on %s', (dialect) => {
  let t: TestApp;
  let alice: BookmarksClient;
  let bob: BookmarksClient;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    alice = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    bob = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    return t.close;
  });

  const message = (response: { json(): unknown }) => ErrorReply.parse(response.json()).message;
  const tagCount = async (client: BookmarksClient, tag: string) => (await client.tags()).find((one) => one.tag === tag)?.count ?? 0;

  it('answers 204, and the bookmark, its index entry, its search results and its counts are gone', async () => {
    const kept = await alice.createIndexed({ title: 'Kept zebra page', link: 'https://kept.example.org/', tags: 'zoo' });
    const gone = await alice.createIndexed({ title: 'Gone zebra page', link: 'https://gone.example.org/', tags: 'zoo only-gone' });
    // A search kept in the cache before the delete must not answer after it.
    expect((await alice.search({ key_words: ['zebra'] })).total_count).toBe(2);
    const before = (await alice.list()).total;

    const response = await alice.inject('DELETE', `/bookmarks/${gone.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await alice.inject('GET', `/bookmarks/${gone.id}`)).statusCode).toBe(404);
    expect((await alice.inject('GET', `/api/bookmarks/${gone.id}`)).statusCode).toBe(404);
    const search = await alice.search({ key_words: ['zebra'] });
    expect(search.bookmarks.map((bookmark) => bookmark.id)).toEqual([kept.id]);
    expect(search.total).toBe(1);
    expect((await alice.list()).total).toBe(before - 1);
    expect(await tagCount(alice, 'zoo')).toBe(1);
    expect(await tagCount(alice, 'only-gone')).toBe(0);
    expect((await alice.list()).host_groups.map((group) => group.key)).not.toContain('gone.example.org');
    // The link is free again.
    expect((await alice.create({ title: 'Back', link: 'https://gone.example.org/' })).title).toBe('Back');
    expect(message(await alice.inject('DELETE', `/bookmarks/${gone.id}`))).toBe('Bookmark not found');
  });

  it('answers 404 for another user\'s bookmark, exactly as for an unknown id, and deletes nothing', async () => {
    const mine = await alice.createIndexed({ title: 'Alice only', link: 'https://alice.example.org/' });
    const theirs = await bob.inject('DELETE', `/bookmarks/${mine.id}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual((await bob.inject('DELETE', '/bookmarks/999999999')).json());
    expect((await alice.inject('GET', `/bookmarks/${mine.id}`)).statusCode).toBe(200);
    expect((await alice.inject('GET', `/api/bookmarks/${mine.id}`)).statusCode).toBe(200);
    expect((await alice.inject('DELETE', '/bookmarks/abc')).statusCode).toBe(400);
  });

  it('deletes several at once, leaving another user\'s ids alone', async () => {
    const { idToken } = await registerUser(t.app);
    const carol = bookmarksClient(t.app, idToken);
    const mine = [];
    for (let i = 0; i < 4; i++) mine.push(await carol.createIndexed({ title: `Bulk ${i}`, link: `https://bulk.example.org/${i}`, tags: 'bulk' }));
    const bobs = await bob.create({ title: 'Bob keeps it', link: 'https://bob.example.org/keep' });
    expect(await carol.bulk({ action: 'delete', ids: [mine[0]!.id, mine[2]!.id, mine[2]!.id, bobs.id] })).toBe(2);
    const left = await carol.list();
    expect(left.items.map((item) => item.title)).toEqual(['Bulk 3', 'Bulk 1']);
    expect(left.total).toBe(2);
    expect(await carol.tags()).toEqual([{ tag: 'bulk', count: 2 }]);
    expect((await carol.search({ key_words: ['bulk'] })).total).toBe(2);
    expect((await bob.inject('GET', `/bookmarks/${bobs.id}`)).statusCode).toBe(200);
  });

  it('adds a tag to several at once, in the spelling already used, indexed at once, once per bookmark', async () => {
    const { idToken } = await registerUser(t.app);
    const dana = bookmarksClient(t.app, idToken);
    const a = await dana.createIndexed({ title: 'First', link: 'https://tag.example.org/1', tags: 'Reading' });
    const b = await dana.createIndexed({ title: 'Second', link: 'https://tag.example.org/2' });
    const c = await dana.createIndexed({ title: 'Third', link: 'https://tag.example.org/3', tags: 'other' });
    const theirs = await bob.create({ title: 'Not Dana’s', link: 'https://tag.example.org/bob' });
    t.clock.advance(60_000);
    expect(await dana.bulk({ action: 'add_tag', ids: [a.id, b.id, c.id, theirs.id], tag: ' reading ' })).toBe(2);
    expect((await dana.inject('GET', `/bookmarks/${b.id}`)).json()).toMatchObject({ tags: ['Reading'], update_date: new Date(t.clock.now()).toISOString() });
    expect((await dana.inject('GET', `/bookmarks/${c.id}`)).json()).toMatchObject({ tags: ['other', 'Reading'] });
    expect((await dana.inject('GET', `/bookmarks/${a.id}`)).json()).toMatchObject({ tags: ['Reading'], update_date: a.update_date });
    expect(await dana.tags()).toEqual([{ tag: 'Reading', count: 3 }, { tag: 'other', count: 1 }]);
    // Tagging moves no host count: the list's total stays the number of bookmarks.
    expect((await dana.list()).total).toBe(3);
    expect((await dana.list()).host_groups).toEqual([{ key: 'tag.example.org', doc_count: 3 }]);
    const found = await dana.search({ key_words: ['third'], tags: ['reading'] });
    expect(found.bookmarks.map((bookmark) => bookmark.tags)).toEqual([['other', 'Reading']]);
    expect((await bob.inject('GET', `/bookmarks/${theirs.id}`)).json()).toMatchObject({ tags: [] });
  });

  it.each([
    [{ action: 'delete' }, 'ids: must be a list of bookmark ids'],
    [{ action: 'delete', ids: [] }, 'ids: must name at least one bookmark'],
    [{ action: 'add_tag', ids: [1] }, 'tag: tag is required'],
    [{ action: 'add_tag', ids: [1], tag: '  ' }, 'tag: tag is required'],
    [{ action: 'rename', ids: [1] }, 'action: must be delete or add_tag'],
    [{ action: 'delete', ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'ids: must be at most 1000 bookmarks'],
    [{ action: 'delete', ids: [1], extra: true }, 'Unrecognized key: "extra"'],
  ])('refuses the bulk call %j with 400 "%s" and changes nothing', async (body, expected) => {
    const before = (await alice.list()).total;
    const response = await alice.inject('POST', '/bookmarks/bulk', body);
    expect(response.statusCode).toBe(400);
    expect(message(response)).toContain(expected);
    expect((await alice.list()).total).toBe(before);
  });
});
