import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../test/manual-clock.ts';
import { registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { bookmarksClient } from '../test/bookmarks-client.ts';
import { createBookmarkImportsStore } from './bookmark-imports.store.ts';
import { createPostgresBookmarkIndex } from './bookmarks.search.postgres.ts';
import { createSqliteBookmarkIndex } from './bookmarks.search.sqlite.ts';
import { createBookmarksService } from './bookmarks.service.ts';
import { createBookmarksStore } from './bookmarks.store.ts';

/** Counts the statements run through it: each has one result (a subquery is transformed, but has none). */
function statementCounter(): KyselyPlugin & { count: number } {
  return {
    count: 0,
    transformQuery: (args) => args.node,
    async transformResult(args) {
      this.count++;
      return args.result;
    },
  };
}

describe.each(testDialects)('reads of a list page on %s', (dialect) => {
  let t: TestApp;
  let ownerId: string;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    const owner = await registerUser(t.app);
    ownerId = owner.user.uid;
    const client = bookmarksClient(t.app, owner.idToken);
    for (let i = 0; i < 30; i++) {
      await client.create({ title: `Page ${i}`, link: `https://site${i % 7}.example.org/${i}`, tags: [`Topic-${i % 5}`, 'common'] });
    }
  });

  afterAll(() => t.close());

  /** The list answered by a service whose every statement is counted. */
  async function listCounted(query: Parameters<ReturnType<typeof createBookmarksService>['list']>[1]) {
    const counter = statementCounter();
    const db = t.storage.db.withPlugin(counter);
    const index = dialect === 'sqlite' ? createSqliteBookmarkIndex(db) : createPostgresBookmarkIndex(db);
    const service = createBookmarksService({ store: createBookmarksStore(db, dialect), index, imports: createBookmarkImportsStore(db), clock: manualClock() });
    const page = await service.list(ownerId, query, undefined);
    return { page, statements: counter.count };
  }

  // Each statement is a round trip to PostgreSQL: the groups, the total and the tag's spelling
  // come from the kept counts, and the page with it, in one, however many bookmarks there are.
  it('is one statement, with the groups, the total and a tag in any case', async () => {
    const all = await listCounted({ pageSize: 10 });
    expect(all.statements).toBe(1);
    expect(all.page.total).toBe(30);
    expect(all.page.items).toHaveLength(10);
    expect(all.page.host_groups).toHaveLength(7);
    expect(all.page.tag_groups[0]).toEqual({ key: 'common', doc_count: 30 });
    expect(all.page.tag_groups.slice(1).map((group) => group.key)).toEqual(['Topic-0', 'Topic-1', 'Topic-2', 'Topic-3', 'Topic-4']);

    const tagged = await listCounted({ pageSize: 10, tag: 'topic-3' });
    expect(tagged.statements).toBe(1);
    expect(tagged.page.total).toBe(6);
    expect(tagged.page.items.map((item) => item.title)).toEqual(['Page 28', 'Page 23', 'Page 18', 'Page 13', 'Page 8', 'Page 3']);
  });

  it('counts an unknown tag as none', async () => {
    const { page, statements } = await listCounted({ pageSize: 10, tag: 'nowhere' });
    expect(statements).toBe(1);
    expect(page).toMatchObject({ total: 0, items: [] });
  });
});
