import type { Kysely, KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../storage/database.ts';
import type { Database } from '../storage/schema.ts';
import { catalogueBook } from '../test/catalogue-book.ts';
import { createTestDatabase, openTestStorage, testDialects } from '../test/test-app.ts';
import { createPostgresCatalogue } from './catalogue.postgres.ts';

/** The database, and how many statements it has answered. */
function countingAnswers(db: Kysely<Database>) {
  let answered = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      answered += 1;
      return args.result;
    },
  };
  return { db: db.withPlugin(plugin), answered: () => answered };
}

/**
 * Every search asks for the catalogue's version; on PostgreSQL it is read at most once a second,
 * and a load through any catalogue of the same database in this process is seen at once.
 */
describe.runIf(testDialects.includes('postgres'))('the catalogue version on PostgreSQL', () => {
  let storage: Storage;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createTestDatabase('postgres');
    drop = database.drop;
    storage = await openTestStorage(database);
  });
  afterAll(async () => {
    await storage.close();
    await drop();
  });

  it('is read once for many asks, and again at once after a load here', async () => {
    if (storage.dialect !== 'postgres') throw new Error('a PostgreSQL storage was opened');
    const counted = countingAnswers(storage.db);
    const searched = createPostgresCatalogue(counted.db, storage.postgres);
    const loader = createPostgresCatalogue(counted.db, storage.postgres);
    await loader.load('replace', async (write) => write(catalogueBook({ id: 'first' })));
    const before = counted.answered();
    const asked = await Promise.all(Array.from({ length: 20 }, () => searched.version()));
    for (let n = 0; n < 20; n++) asked.push(await searched.version());
    expect(new Set(asked).size).toBe(1);
    // Once; twice only if the machine stalled a second between the asks.
    expect(counted.answered() - before).toBeLessThanOrEqual(2);

    await loader.load('replace', async (write) => write(catalogueBook({ id: 'second' })));
    const after = await searched.version();
    expect(after).not.toBe(asked[0]);
    expect(await storage.db.selectFrom('settings').select('value').where('key', '=', 'books_version').executeTakeFirst()).toEqual({ value: after });
  });
});
