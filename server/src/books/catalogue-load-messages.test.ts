import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { migrate, openStorage, type Storage } from '../storage/database.ts';
import { createTestDatabase, testDialects } from '../test/test-app.ts';
import { type Catalogue, catalogueQuery } from './books.search.ts';
import { searchedTestCatalogue } from '../test/empty-catalogue.ts';
import { fromCalibreJson } from './import/calibre-json.ts';

/** Several of the SQLite writer's messages (256 books each), the last one partly filled. */
const BOOKS = 1000;

const book = (id: number, title: string) =>
  fromCalibreJson({ id, title, authors: ['Ann Other'], formats: [`/lib/Ann Other/${title} (${id})/book.epub`] });
/** Books whose titles hold the words; every book for none. */
const titles = (catalogue: Catalogue, keys: string) =>
  catalogue.search(catalogueQuery({ keys, fields: ['title'], format: '', from: 0, size: 5 })).then((found) => found.total);

async function withCatalogue(
  dialect: (typeof testDialects)[number],
  use: (catalogue: Catalogue, storage: Storage) => Promise<void>,
) {
  const database = await createTestDatabase(dialect);
  const storage = await openStorage(database);
  try {
    await migrate(storage);
    const catalogue = searchedTestCatalogue(storage);
    try {
      await use(catalogue, storage);
    } finally {
      await catalogue.close();
    }
  } finally {
    await storage.close();
    await database.drop();
  }
}

/** Whether a connection that does not wait is given SQLite's write lock now. */
function writeLockFree(sqliteFile: string): boolean {
  const probe = new DatabaseSync(sqliteFile);
  try {
    probe.exec('PRAGMA busy_timeout = 0');
    probe.exec('BEGIN IMMEDIATE');
    probe.exec('ROLLBACK');
    return true;
  } catch (error) {
    if ((error as { errcode?: number }).errcode === SQLITE_BUSY) return false;
    throw error;
  } finally {
    probe.close();
  }
}
const SQLITE_BUSY = 5;

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
    // Each search after a load waits for the index of that load to be built.
  }, 60_000);

  it('changes nothing when the load throws after several messages of books, and the next load goes through', async () => {
    await withCatalogue(dialect, async (catalogue, storage) => {
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
      // The failed load's transaction is gone at once: another connection that will not wait gets the write lock.
      if (storage.sqliteFile) expect(writeLockFree(storage.sqliteFile)).toBe(true);
      await catalogue.load('update', async (write) => {
        await write(book(2, 'after'));
      });
      expect(await titles(catalogue, '')).toBe(2);
    });
  }, 60_000);
});

describe.each(testDialects)('the books\' seq on %s', (dialect) => {
  // After a load the index before answers and reads its pages by seq (search-index/README.md).
  it('is never given twice, not even after a replace emptied the catalogue', async () => {
    const database = await createTestDatabase(dialect);
    const storage = await openStorage(database);
    try {
      await migrate(storage);
      const catalogue = searchedTestCatalogue(storage);
      const seqs = async () => (await storage.db.selectFrom('books').select('seq').orderBy('seq').execute()).map((row) => Number(row.seq));
      try {
        await catalogue.load('replace', async (write) => {
          for (let id = 1; id <= 3; id++) await write(book(id, `first ${id}`));
        });
        const first = await seqs();
        await catalogue.load('replace', async (write) => {
          for (let id = 1; id <= 3; id++) await write(book(id, `second ${id}`));
        });
        const second = await seqs();
        expect(Math.min(...second)).toBeGreaterThan(Math.max(...first));
      } finally {
        await catalogue.close();
      }
    } finally {
      await storage.close();
      await database.drop();
    }
  }, 60_000);
});
