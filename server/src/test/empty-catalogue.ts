import { type Catalogue, type CatalogueStore, searchedCatalogue } from '../books/books.search.ts';
import { type BookSearchOptions, createBookSearch } from '../books/search-index/book-search.ts';
import { indexSourceOf } from '../books/search-index/index-sources.ts';
import { createPostgresCatalogue } from '../books/catalogue.postgres.ts';
import { createSqliteCatalogue } from '../books/catalogue.sqlite.ts';
import type { Storage } from '../storage/database.ts';

/** The stored catalogue of a test app's storage, opened beside the app's own. */
export function testCatalogue(storage: Storage): CatalogueStore {
  return storage.dialect === 'sqlite' ? createSqliteCatalogue(storage.db, storage.sqliteFile) : createPostgresCatalogue(storage.db, storage.postgres);
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

/**
 * The catalogue of a test app's storage searched by a book search of its own, which waits for the
 * index of the current catalogue: opened beside the app's own, its index file not kept.
 */
export function searchedTestCatalogue(storage: Storage, options: Partial<BookSearchOptions> = {}): Catalogue {
  return searchedCatalogue(testCatalogue(storage), createBookSearch({ source: indexSourceOf(storage), waitForIndex: true, ...options }));
}
