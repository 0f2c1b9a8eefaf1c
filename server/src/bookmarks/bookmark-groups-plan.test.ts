import { CompiledQuery, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../storage/schema.ts';
import type { Storage } from '../storage/database.ts';
import { createTestDatabase, openTestStorage, testDialects } from '../test/test-app.ts';
import { topGroupsQuery } from './bookmarks.store.ts';

/** The plan's text, as each database tells it. */
async function plan(db: Kysely<Database>, dialect: Storage['dialect'], query: CompiledQuery): Promise<string> {
  const explain = dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  // Told to use an index where it can: on a small test table PostgreSQL would read it whole anyway.
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
    const { rows } = await trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(explain + query.sql, [...query.parameters]));
    return rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
  });
}

describe.each(testDialects)('the list\'s groups on %s', (dialect) => {
  let storage: Storage;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    drop = database.drop;
    storage = await openTestStorage(database);
  });

  afterAll(async () => {
    await storage.close();
    await drop();
  });

  it('reads a user\'s top hosts and tags in the index\'s order, without sorting every one of them', async () => {
    for (const kind of ['host', 'tag'] as const) {
      const text = await plan(storage.db, dialect, topGroupsQuery(storage.db, 'owner', kind).compile());
      expect(text).toContain('bookmark_facets_top');
      expect(text).not.toMatch(dialect === 'sqlite' ? /TEMP B-TREE/ : /Sort/);
    }
  });
});
