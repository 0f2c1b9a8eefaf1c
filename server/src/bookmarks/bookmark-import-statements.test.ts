import { CompiledQuery, type Kysely, type KyselyPlugin, type PluginTransformQueryArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../storage/database.ts';
import type { Database } from '../storage/schema.ts';
import { createTestDatabase, openTestStorage, testDialects } from '../test/test-app.ts';
import { createPostgresBookmarkIndex } from './bookmarks.search.postgres.ts';
import { createSqliteBookmarkIndex } from './bookmarks.search.sqlite.ts';
import { createBookmarksStore, type NewBookmark } from './bookmarks.store.ts';

const NOW = 1_767_225_600_000;
/** More than one statement's rows (storage/statement-rows.ts), so that a batch is written in slices. */
const BATCH = 1200;

/** The database, and how many statements it has been sent. */
function countingStatements(db: Kysely<Database>) {
  let sent = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      sent += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return {
    db: db.withPlugin(plugin),
    async during<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
      const before = sent;
      const result = await work();
      return { result, statements: sent - before };
    },
  };
}

const bookmark = (n: number, tags = [`Topic${n % 4}`, 'shared']): NewBookmark => ({
  title: `Bookmark ${n}`,
  link: `https://site${n % 10}.example.org/${n}`,
  tags,
  note: undefined,
  createDate: NOW + n,
  updateDate: NOW + n,
});

describe.each(testDialects)('an import batch on %s', (dialect) => {
  let storage: Storage;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    drop = database.drop;
    storage = await openTestStorage(database);
    await storage.db
      .insertInto('users')
      .values({
        id: 'u1', email: 'u1@example.org', display_name: 'U', photo: null, password_hash: null, timezone: null, is_admin: 0,
        created_at: NOW, updated_at: NOW, disabled_at: null, password_change_required: 0,
      })
      .execute();
  });
  afterAll(async () => {
    await storage.close();
    await drop();
  });

  it('writes its bookmarks, tags, counts and index entries in a few statements, keeping the first of a link and the owner’s spellings', async () => {
    const counting = countingStatements(storage.db);
    const store = createBookmarksStore(counting.db, dialect);
    const index = dialect === 'sqlite' ? createSqliteBookmarkIndex(counting.db) : createPostgresBookmarkIndex(counting.db);
    expect(await store.insert('u1', bookmark(20, ['SHARED']))).toBeDefined();
    const given = Array.from({ length: BATCH }, (_, n) => bookmark(n));
    // A link given twice, the second time in the batch's second slice, with other tags.
    given[1100] = { ...bookmark(10), tags: ['other'] };

    const written = await counting.during(() => store.insertMany('u1', given));
    const rows = written.result;
    expect(written.statements).toBeLessThanOrEqual(8);
    expect(rows.map((row) => row.link)).toEqual(given.filter((_, n) => n !== 20 && n !== 1100).map((one) => one.link));
    expect(rows.map((row) => Number(row.id))).toEqual(rows.map((row) => Number(row.id)).toSorted((a, b) => a - b));
    const tenth = rows.find((row) => row.link === bookmark(10).link)!;
    expect(JSON.parse(tenth.tags)).toEqual(['Topic2', 'SHARED']);
    expect(await store.tags('u1')).toEqual([
      { tag: 'SHARED', count: BATCH - 1 },
      { tag: 'Topic1', count: 300 },
      { tag: 'Topic2', count: 300 },
      { tag: 'Topic3', count: 300 },
      { tag: 'Topic0', count: 298 },
    ]);
    expect((await store.page('u1', { tag: 'Topic2' }, undefined, 1000)).map((row) => row.link)).toContain(bookmark(10).link);

    const indexed = await counting.during(() => index.put('u1', rows));
    expect(indexed.statements).toBeLessThanOrEqual(16);
    const found = await index.search('u1', { terms: ['topic2'], fields: ['tags'], from: 0, size: 1 });
    expect(found.total).toBe(300);
    expect(found.tag_groups).toContainEqual({ key: 'SHARED', doc_count: 300 });
  });

  // Without statistics SQLite takes `owner_id = ?` for the narrower condition, and would walk all
  // the owner's rows to find the batch's twenty, a batch longer with every batch written.
  it.skipIf(dialect !== 'sqlite')('reads the rows it names by id, never all the owner’s, on SQLite', async () => {
    const sent: PluginTransformQueryArgs[] = [];
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        sent.push(args);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const db = storage.db.withPlugin(plugin);
    const store = createBookmarksStore(db, dialect);
    const index = createSqliteBookmarkIndex(db);
    const rows = await store.insertMany('u1', Array.from({ length: 20 }, (_, n) => bookmark(BATCH + n)));
    await index.put('u1', rows);
    // Again, so that its deletes find the entries they name.
    await index.put('u1', rows);

    const walks: string[] = [];
    for (const { node, queryId } of sent) {
      const query = storage.db.getExecutor().compileQuery(node, queryId);
      const plan = await storage.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
      walks.push(...plan.rows.map((row) => row.detail).filter((detail) => detail.endsWith('(owner_id=?)')));
    }
    expect(sent.length).toBeGreaterThan(5);
    expect(walks).toEqual([]);
  });
});
