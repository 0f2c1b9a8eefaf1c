import type { Catalogue } from '../books/books.search.ts';
import { createPostgresCatalogue } from '../books/books.search.postgres.ts';
import { createSqliteCatalogue } from '../books/books.search.sqlite.ts';
import type { Storage } from '../storage/database.ts';

/** The catalogue of a test app's storage, opened beside the app's own. */
export function testCatalogue(storage: Storage): Catalogue {
  return storage.dialect === 'sqlite' ? createSqliteCatalogue(storage.db, storage.sqliteFile) : createPostgresCatalogue(storage.db);
}

/** Empties the catalogue underneath the app: no upload can, since a file without books is refused. */
export async function emptyCatalogue(storage: Storage): Promise<void> {
  const catalogue = testCatalogue(storage);
  try {
    await catalogue.load('replace', async () => undefined);
  } finally {
    await catalogue.close();
  }
}
