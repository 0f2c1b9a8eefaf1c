import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BookResults, CatalogueBook } from '../../../../contract/books.ts';
import { HealthReply } from '../../../../contract/health.ts';
import type { Storage } from '../../storage/database.ts';
import { multipart } from '../../test/multipart.ts';
import { bearer, buildTestApp, createTestDatabase, openTestStorage, registerUser, testDialects } from '../../test/test-app.ts';
import { createPostgresCatalogue } from '../books.search.postgres.ts';
import { createSqliteCatalogue } from '../books.search.sqlite.ts';
import { catalogueQuery } from '../books.search.ts';
import { indexSourceOf } from './index-sources.ts';
import { withWordIndex } from './word-indexed-catalogue.ts';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/calibre');

/**
 * A server's searches while its word index is built: the database answers them, with the same
 * results, and the health reply says how far the index is; after a load it is built again.
 */
describe.each(testDialects)('the word index built in the background on %s', (dialect) => {
  it('answers from the database until the index is built, then from the index, and builds it again after a load', async () => {
    const database = await createTestDatabase(dialect);
    const t = await buildTestApp(database, { wordIndex: 'background' });
    try {
      const token = (await registerUser(t.app)).idToken;
      const upload = async (name: string, mode: string) => {
        const body = multipart([['name', mode], ['file', fs.readFileSync(path.join(FIXTURES, name)), 'index']]);
        const response = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(token) } });
        expect(response.statusCode, response.body).toBe(200);
      };
      const search = async (keys: string) => {
        const response = await t.app.inject({ url: '/api/books', query: { keys, fields: 'title,author,comment' }, headers: bearer(token) });
        const { total, books } = BookResults.parse(response.json());
        return { total, titles: books.map((book) => book.title) };
      };
      const index = async () => HealthReply.parse((await t.app.inject({ url: '/api/health' })).json()).search_index;
      const built = async (books: number) => {
        await expect.poll(index, { timeout: 20_000, interval: 50 }).toEqual({ state: 'ready', books });
      };

      await upload('library.json', 'replace');
      expect(await index()).toEqual({ state: 'idle' });
      const first = await search('the');
      expect(first.total).toBeGreaterThan(0);
      await built(15);
      expect(await search('the')).toEqual(first);

      await upload('library-updated.json', 'update');
      const updated = await search('omens');
      expect(updated.titles[0]).toMatch(/^Good Omens: The Nice/);
      await built(16);
      expect(await search('omens')).toEqual(updated);
    } finally {
      await t.close();
      await database.drop();
    }
  }, 60_000);
});

/** The catalogue of a storage with its searches on the word index, its threads ending after `idleMs`. */
function indexedCatalogue(storage: Storage, idleMs: number) {
  const inner = storage.dialect === 'sqlite' ? createSqliteCatalogue(storage.db, storage.sqliteFile) : createPostgresCatalogue(storage.db);
  return withWordIndex(inner, { source: indexSourceOf(storage), waitForIndex: true, threads: 2, idleMs });
}

describe.each(testDialects)('the word index\'s searching threads on %s', (dialect) => {
  const IDLE_MS = 300;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let storage: Storage;
  let catalogue: ReturnType<typeof indexedCatalogue>;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    storage = await openTestStorage(database);
    catalogue = indexedCatalogue(storage, IDLE_MS);
    await catalogue.load('replace', async (write) => {
      for (const [id, title] of [['1', 'Les Misérables'], ['2', 'Notre-Dame de Paris'], ['3', 'Les Travailleurs de la mer']]) {
        const comment = `<p>${title}, by Victor Hugo.</p>`;
        await write(CatalogueBook.parse({ id, title, author: 'Victor Hugo', identifier: '', publish_date: null, publisher: '', created: null, updated: null, comment, path: '', formats: [] }));
      }
    });
  });
  afterEach(async () => {
    await catalogue.close();
    await storage.close();
    await database.drop();
  });

  const search = async (keys: string) => {
    const { total, books } = await catalogue.search(catalogueQuery({ keys, fields: ['title'], format: '', from: 0, size: 10 }));
    return { total, ids: books.map((book) => book.id).sort() };
  };

  it('end once no search has come for a while, and start again, with the index, for the next', async () => {
    const both = await Promise.all([search('les'), search('paris')]);
    expect(both).toEqual([{ total: 2, ids: ['1', '3'] }, { total: 1, ids: ['2'] }]);
    expect(catalogue.searchingThreads()).toBe(2);

    await expect.poll(() => catalogue.searchingThreads(), { timeout: 10_000, interval: 50 }).toBe(0);
    expect(await search('mer')).toEqual({ total: 1, ids: ['3'] });
    expect(catalogue.searchingThreads()).toBe(1);
    expect(catalogue.indexStatus()).toEqual({ state: 'ready', books: 3 });
  }, 30_000);

  it('read the comments of a page only when they are wanted, on the index as on the database', async () => {
    const comments = async (includeComment: boolean) => {
      const { books } = await catalogue.search(catalogueQuery({ keys: 'miserables', fields: ['title'], format: '', from: 0, size: 10, includeComment }));
      return books.map((book) => book.comment);
    };
    expect(await comments(true)).toEqual(['<p>Les Misérables, by Victor Hugo.</p>']);
    expect(await comments(false)).toEqual([null]);
    expect(catalogue.indexStatus()).toEqual({ state: 'ready', books: 3 });
  }, 30_000);

  it('keep one running while one person searches, and no more', async () => {
    await search('miserables');
    const started = performance.now();
    while (performance.now() - started < 5 * IDLE_MS) {
      expect(await search('miserables')).toEqual({ total: 1, ids: ['1'] });
      expect(catalogue.searchingThreads()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 3));
    }
  }, 30_000);
});
