import { describe, expect, it } from 'vitest';
import { migrate, openStorage } from '../storage/database.ts';
import { createTestDatabase, testDialects } from '../test/test-app.ts';
import { type Catalogue, catalogueQuery } from './books.search.ts';
import { createPostgresCatalogue } from './books.search.postgres.ts';
import { createSqliteCatalogue } from './books.search.sqlite.ts';
import { fromCalibreJson } from './import/calibre-json.ts';

/** Several of the SQLite writer's messages (256 books each), the last one partly filled. */
const BOOKS = 1000;

const book = (id: number, title: string) =>
  fromCalibreJson({ id, title, authors: ['Ann Other'], formats: [`/lib/Ann Other/${title} (${id})/book.epub`] });
/** Books whose titles hold the words; every book for none. */
const titles = (catalogue: Catalogue, keys: string) =>
  catalogue.search(catalogueQuery({ keys, fields: ['title'], format: '', from: 0, size: 5 })).then((found) => found.total);

async function withCatalogue(dialect: (typeof testDialects)[number], use: (catalogue: Catalogue) => Promise<void>) {
  const database = await createTestDatabase(dialect);
  const storage = await openStorage(database);
  try {
    await migrate(storage);
    const catalogue = storage.sqliteFile ? createSqliteCatalogue(storage.db, storage.sqliteFile) : createPostgresCatalogue(storage.db);
    try {
      await use(catalogue);
    } finally {
      await catalogue.close();
    }
  } finally {
    await storage.close();
    await database.drop();
  }
}

describe.each(testDialects)('a load of many books on %s', (dialect) => {
  it('writes every book, and an update rewrites the books it names, one named twice as it is last given', async () => {
    await withCatalogue(dialect, async (catalogue) => {
      await catalogue.load('replace', async (write) => {
        for (let id = 1; id <= BOOKS; id++) await write(book(id, `first ${id}`));
      });
      expect(await titles(catalogue, 'first')).toBe(BOOKS);
      await catalogue.load('update', async (write) => {
        for (let id = 1; id <= 600; id++) await write(book(id, `second ${id}`));
        await write(book(5, 'third 5'));
      });
      expect(await titles(catalogue, 'first')).toBe(BOOKS - 600);
      expect(await titles(catalogue, 'second')).toBe(599);
      expect((await catalogue.get('5'))?.title).toBe('third 5');
      expect(await titles(catalogue, '')).toBe(BOOKS);
    });
  });

  it('changes nothing when the load throws after several messages of books, and the next load goes through', async () => {
    await withCatalogue(dialect, async (catalogue) => {
      await catalogue.load('replace', async (write) => {
        await write(book(1, 'kept'));
      });
      const failing = catalogue.load('replace', async (write) => {
        for (let id = 1; id <= 700; id++) await write(book(id, `lost ${id}`));
        throw new Error('the file ends early');
      });
      await expect(failing).rejects.toThrow('the file ends early');
      expect(await titles(catalogue, 'kept')).toBe(1);
      expect(await titles(catalogue, 'lost')).toBe(0);
      const started = performance.now();
      await catalogue.load('update', async (write) => {
        await write(book(2, 'after'));
      });
      // The failed load's transaction is gone at once, not after the busy timeout (10 s).
      expect(performance.now() - started).toBeLessThan(5000);
      expect(await titles(catalogue, '')).toBe(2);
    });
  });
});
