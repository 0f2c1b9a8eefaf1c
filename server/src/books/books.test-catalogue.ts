import type { Storage } from '../storage/database.ts';
import type { Catalogue } from './catalogue.ts';
import { createPostgresCatalogue } from './catalogue.postgres.ts';
import { createSqliteCatalogue } from './catalogue.sqlite.ts';

/** The catalogue of a test app's storage, opened beside the app's own. */
export function testCatalogue(storage: Storage): Catalogue {
  return storage.sqliteFile ? createSqliteCatalogue(storage.db, storage.sqliteFile) : createPostgresCatalogue(storage.db);
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
