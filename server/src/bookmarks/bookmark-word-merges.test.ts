import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type TestApp, testAppOn } from '../test/test-app.ts';
import { bookmarksClient } from '../test/bookmarks-client.ts';

/** SQLite's word index merges its segments a bounded step per write, not by FTS5's own rule (migration 0019). */
describe('the bookmark word index on sqlite', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testAppOn('sqlite');
  });
  afterAll(() => t.close());

  const rowsOfWords = async () => (await sql<{ rows: number }>`select count(*) as rows from bookmark_index_fts_data`.execute(t.storage.db)).rows[0]!.rows;

  it('leaves merging to each write, which keeps the index in few segments', async () => {
    const setting = await sql<{ v: number }>`select v from bookmark_index_fts_config where k = 'automerge'`.execute(t.storage.db);
    expect(setting.rows).toEqual([{ v: 0 }]);

    const alice = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
    for (let n = 0; n < 15; n++) await alice.createIndexed({ title: `Entry ${n} about merging`, link: `https://example.org/${n}` });
    // Left alone, fifteen writes are fifteen segments of a page each (seventeen rows with the
    // index's own); FTS5 merges them itself only at sixteen. Merged as they come, a handful.
    expect(await rowsOfWords()).toBeLessThan(10);
    expect((await alice.search({ key_words: ['merging'] })).total_count).toBe(15);
  });
});
