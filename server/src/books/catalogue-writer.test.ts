import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CatalogueBook } from '../../../contract/books.ts';
import type { Storage } from '../storage/database.ts';
import { createTestDatabase, openTestStorage } from '../test/test-app.ts';
import { createSqliteCatalogue } from './books.search.sqlite.ts';
import { WRITER_THREAD_NAME } from './catalogue-writer.ts';

/** The threads of this process with the writer's name (Linux shows a thread's name, cut to 15 bytes). */
const writerThreads = () =>
  fs.readdirSync('/proc/self/task').filter((thread) => fs.readFileSync(`/proc/self/task/${thread}/comm`, 'utf8').trim() === WRITER_THREAD_NAME.slice(0, 15));

describe('the catalogue writer on SQLite', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let storage: Storage;

  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    storage = await openTestStorage(database);
  });
  afterEach(async () => {
    await storage.close();
    await database.drop();
  });

  // What follows a load (the word index's building thread) then takes the writer's malloc arena,
  // with the page cache it freed, rather than a new one (docs/decisions.md, "The writer's arena").
  it('has ended its thread by the time a load is answered', async () => {
    const catalogue = createSqliteCatalogue(storage.db, storage.sqliteFile!);
    for (let load = 0; load < 5; load++) {
      let during: string[] = [];
      await catalogue.load('replace', async (write) => {
        await write(CatalogueBook.parse({ id: `${load}`, title: 'Les Misérables', author: 'Victor Hugo', identifier: '', publish_date: null, publisher: '', created: null, updated: null, comment: '', path: '', formats: [] }));
        during = writerThreads();
      });
      expect(during).toHaveLength(1);
      expect(writerThreads()).toEqual([]);
    }
    await catalogue.close();
  });
});
