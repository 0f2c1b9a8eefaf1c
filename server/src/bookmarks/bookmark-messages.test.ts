import { beforeAll, describe, expect, it } from 'vitest';
import { Bookmark } from '../../../contract/bookmarks.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { type BookmarksClient, bookmarksClient } from '../test/bookmarks-client.ts';

// Issue 12: a refused bookmark call says what is wrong in people's words, with the field's label.
describe.each(testDialects)('bookmark validation messages on %s', (dialect) => {
  let t: TestApp;
  let alice: BookmarksClient;
  let saved: Bookmark;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    alice = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    saved = await alice.createIndexed({ title: 'Kept', link: 'https://kept.example.org/', tags: 'one' });
    return t.close;
  });

  const refusal = async (response: { statusCode: number; body: string; json(): unknown }, status = 400) => {
    expect(response.statusCode, response.body).toBe(status);
    return ErrorReply.parse(response.json()).message;
  };

  it.each([
    [{ link: 'https://example.org/' }, 'Title is required'],
    [{ title: '', link: '' }, 'Title is required; Link is required'],
    [{ title: 3, link: 'https://example.org/' }, 'Title must be text'],
    [{ title: 'A', link: 'example.org' }, 'Link must be a web address starting with http:// or https://'],
    [{ title: 'A', link: 'https://example.org/', tags: ['x'.repeat(101)] }, 'Each tag must be at most 100 characters'],
    [{ title: 'A', link: 'https://example.org/', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'A bookmark may have at most 50 tags'],
    [{ title: 'A', link: 'https://example.org/', note: 5 }, 'Note must be text'],
  ])('refuses the create %j with "%s" and stores nothing', async (body, expected) => {
    expect(await refusal(await alice.inject('POST', '/bookmarks/', body))).toBe(expected);
    expect((await alice.list()).items.map((bookmark) => bookmark.id)).toEqual([saved.id]);
  });

  it('refuses an update in the same words and keeps the bookmark as it was', async () => {
    expect(await refusal(await alice.inject('PUT', `/bookmarks/${saved.id}`, { ...saved, title: ' ' }))).toBe('Title is required');
    expect(await refusal(await alice.inject('PUT', `/bookmarks/${saved.id}`, { ...saved, link: 'ftp://kept.example.org/' }))).toBe(
      'Link must be a web address starting with http:// or https://',
    );
    const other = await alice.create({ title: 'Other', link: 'https://other.example.org/' });
    expect(await refusal(await alice.inject('PUT', `/bookmarks/${other.id}`, { ...other, link: saved.link }), 409)).toBe(
      'You already have a bookmark for this link',
    );
    expect(Bookmark.parse((await alice.inject('GET', `/bookmarks/${saved.id}`)).json())).toEqual({ ...saved, indexed: undefined });
    await alice.inject('DELETE', `/bookmarks/${other.id}`);
  });

  it('refuses a date range whose end comes before its start, in the list and in the search', async () => {
    const list = await t.app.inject({ url: '/bookmarks/', query: { start_date: '2026-03-02', end_date: '2026-03-01' }, headers: alice.headers });
    expect(await refusal(list)).toBe('End date must not be before the start date');
    const search = await alice.inject('POST', '/api/bookmarks/query', {
      key_words: ['kept'],
      update_time_range: { start: '2026-03-02T00:00:00Z', end: '2026-03-01T23:59:59Z' },
    });
    expect(await refusal(search)).toBe('Updated until must not be before the start');
    expect(await refusal(await alice.inject('POST', '/api/bookmarks/query', { key_words: [] }))).toBe('key words are required');
    // A range of one instant is a range.
    const same = await t.app.inject({ url: '/bookmarks/', query: { start_date: '2026-03-01', end_date: '2026-03-01' }, headers: alice.headers });
    expect(same.statusCode, same.body).toBe(200);
  });
});
