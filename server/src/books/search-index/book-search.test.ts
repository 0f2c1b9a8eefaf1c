import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BookResults } from '../../../../contract/books.ts';
import { HealthReply } from '../../../../contract/health.ts';
import { BOOK_SEARCH_INDEX_FILE } from '../../services.ts';
import type { Storage } from '../../storage/database.ts';
import { searchedTestCatalogue, testCatalogue } from '../../test/empty-catalogue.ts';
import { multipart } from '../../test/multipart.ts';
import { catalogueBook } from '../../test/catalogue-book.ts';
import { bearer, buildTestApp, createTestDatabase, openTestStorage, registerUser, testDialects, type TestApp } from '../../test/test-app.ts';
import { catalogueQuery } from '../books.search.ts';
import { fromCalibreJson } from '../import/calibre-json.ts';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/calibre');

/** The key that reads the books (`BOOKS_API_KEY`): a server started again has no one signed up to search with. */
const BOOKS_KEY = 'a key to read the books with';
const withKey = { env: { BOOKS_API_KEY: BOOKS_KEY } };
const keyed = { 'x-api-key': BOOKS_KEY };

/** A test app's search and health, as a person and the operator see them. */
function client(t: TestApp, token?: string) {
  const reader = token === undefined ? keyed : bearer(token);
  return {
    async upload(name: string, mode: string) {
      const body = multipart([['name', mode], ['file', fs.readFileSync(path.join(FIXTURES, name)), 'index']]);
      const response = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...reader } });
      expect(response.statusCode, response.body).toBe(200);
    },
    search: (keys: string) => t.app.inject({ url: '/api/books', query: { keys, fields: 'title,author,comment' }, headers: reader }),
    async found(keys: string) {
      const response = await this.search(keys);
      expect(response.statusCode, response.body).toBe(200);
      const { total, books } = BookResults.parse(response.json());
      return { total, titles: books.map((book) => book.title) };
    },
    index: async () => HealthReply.parse((await t.app.inject({ url: '/api/health' })).json()).search_index,
  };
}

const ready = (books: number, from: 'file' | 'database') => ({ state: 'ready', books, from });

/**
 * A server's searches while its index is prepared: refused with a 503 that says how far it is
 * until the first index exists, then answered by it; after a load the index before answers until
 * the new one is built.
 */
describe.each(testDialects)('the book search prepared in the background on %s', (dialect) => {
  it('refuses searches until the first index is built, then answers from the index before a load while the next is built', async () => {
    const database = await createTestDatabase(dialect);
    const t = await buildTestApp(database, { wordIndex: 'background' });
    try {
      const token = (await registerUser(t.app)).idToken;
      const api = client(t, token);
      await api.upload('library.json', 'replace');
      expect(await api.index()).toEqual({ state: 'idle' });
      const refused = await api.search('the');
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable', progress: expect.any(Number) });
      // Listing by last update needs no index.
      expect((await api.search('')).statusCode).toBe(200);
      // The facets are counted by the index: a browse page is refused as a search is.
      const browse = () => t.app.inject({ url: '/api/books/browse?facet=authors', headers: bearer(token) });
      expect((await browse()).statusCode).toBe(503);
      await expect.poll(api.index, { timeout: 20_000, interval: 50 }).toEqual(ready(15, 'database'));
      expect((await browse()).statusCode).toBe(200);
      const first = await api.found('the');
      expect(first.total).toBeGreaterThan(0);

      await api.upload('library-updated.json', 'update');
      // Answered at once, by the index of the catalogue before the load.
      expect((await api.search('omens')).statusCode).toBe(200);
      await expect.poll(api.index, { timeout: 20_000, interval: 50 }).toEqual(ready(16, 'database'));
      expect((await api.found('omens')).titles[0]).toMatch(/^Good Omens: The Nice/);
    } finally {
      await t.close();
      await database.drop();
    }
  }, 60_000);
});

describe.each(testDialects)('the book search\'s searching threads on %s', (dialect) => {
  // Long enough that a busy machine's pause between two searches does not end a thread between them.
  const IDLE_MS = 2_000;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let storage: Storage;
  let catalogue: ReturnType<typeof searchedTestCatalogue>;
  let threads: () => number;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    storage = await openTestStorage(database);
    const { createBookSearch } = await import('./book-search.ts');
    const { indexSourceOf } = await import('./index-sources.ts');
    const { searchedCatalogue } = await import('../books.search.ts');
    const search = createBookSearch({ source: indexSourceOf(storage), waitForIndex: true, threads: 2, idleMs: IDLE_MS });
    threads = search.searchingThreads;
    catalogue = searchedCatalogue(testCatalogue(storage), search);
    await catalogue.load('replace', async (write) => {
      for (const [id, title] of [['1', 'Les Misérables'], ['2', 'Notre-Dame de Paris'], ['3', 'Les Travailleurs de la mer']] as const) {
        const comment = `<p>${title}, by Victor Hugo.</p>`;
        await write(catalogueBook({ id, title, author: 'Victor Hugo', comment }));
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
    expect(threads()).toBe(2);

    await expect.poll(threads, { timeout: 30_000, interval: 50 }).toBe(0);
    expect(await search('mer')).toEqual({ total: 1, ids: ['3'] });
    expect(threads()).toBe(1);
    expect(catalogue.indexStatus()).toEqual(ready(3, 'database'));
  }, 60_000);

  it('read the comments of a page only when they are wanted', async () => {
    const comments = async (includeComment: boolean) => {
      const { books } = await catalogue.search(catalogueQuery({ keys: 'miserables', fields: ['title'], format: '', from: 0, size: 10, includeComment }));
      return books.map((book) => book.comment);
    };
    expect(await comments(true)).toEqual(['<p>Les Misérables, by Victor Hugo.</p>']);
    expect(await comments(false)).toEqual([null]);
  }, 30_000);

  it('keep one running while one person searches, and no more', async () => {
    await search('miserables');
    const started = performance.now();
    while (performance.now() - started < 5 * IDLE_MS) {
      expect(await search('miserables')).toEqual({ total: 1, ids: ['1'] });
      expect(threads()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 3));
    }
  }, 30_000);
});

/** The generated catalogue of the restart test: a word shared by a book in a thousand, and each book's own. */
const generatedBook = (n: number) =>
  fromCalibreJson({ id: n, title: `Volume ${n} of the ${n % 1000 === 0 ? 'millennial' : 'ordinary'} series`, authors: [`Author ${n % 5000}`] });

describe.each(testDialects)('the book search\'s index file on %s', (dialect) => {
  const BOOKS = 100_000;

  it(`is read at a restart with ${BOOKS.toLocaleString('en')} books, and answers the first search from it`, async () => {
    const database = await createTestDatabase(dialect);
    try {
      const storage = await openTestStorage(database);
      const store = testCatalogue(storage);
      await store.load('replace', async (write) => {
        for (let n = 1; n <= BOOKS; n++) await write(generatedBook(n));
      });
      await storage.close();

      const first = await buildTestApp(database, { wordIndex: 'background', ...withKey });
      try {
        const api = client(first);
        expect((await api.search('millennial')).statusCode).toBe(503);
        await expect.poll(api.index, { timeout: 120_000, interval: 100 }).toEqual(ready(BOOKS, 'database'));
      } finally {
        await first.close();
      }
      expect(fs.existsSync(path.join(database.dataDir, BOOK_SEARCH_INDEX_FILE))).toBe(true);

      const again = await buildTestApp(database, { wordIndex: 'background', ...withKey });
      try {
        const api = client(again);
        // The first search starts the index's preparation: read from its file, it is ready before a build could have read a tenth of the books.
        await api.search('millennial');
        await expect.poll(api.index, { timeout: 30_000, interval: 20 }).toEqual(ready(BOOKS, 'file'));
        expect(await api.found('millennial')).toMatchObject({ total: BOOKS / 1000, titles: expect.arrayContaining(['Volume 1000 of the millennial series']) });
      } finally {
        await again.close();
      }
    } finally {
      await database.drop();
    }
  }, 300_000);

  it('is built again, not trusted, when it is damaged or of another catalogue', async () => {
    const database = await createTestDatabase(dialect);
    const file = path.join(database.dataDir, BOOK_SEARCH_INDEX_FILE);
    /** Starts the app, searches once it is ready, and says where its index came from. */
    const start = async () => {
      const t = await buildTestApp(database, withKey);
      try {
        const api = client(t);
        const found = await api.found('omens');
        return { found, index: await api.index() };
      } finally {
        await t.close();
      }
    };
    try {
      const seeded = await buildTestApp(database);
      await client(seeded, (await registerUser(seeded.app)).idToken).upload('library.json', 'replace');
      await seeded.close();
      expect((await start()).index).toMatchObject({ from: 'database' });
      const good = await start();
      expect(good.index).toMatchObject({ from: 'file' });

      // A byte of the middle of the file changed: its checksum no longer holds.
      const bytes = fs.readFileSync(file);
      bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
      fs.writeFileSync(file, bytes);
      expect(await start()).toEqual({ ...good, index: ready(15, 'database') });
      // Written again whole.
      expect((await start()).index).toMatchObject({ from: 'file' });

      // Cut short.
      fs.truncateSync(file, 100);
      expect(await start()).toEqual({ ...good, index: ready(15, 'database') });

      // The catalogue loaded while the server was stopped: the file is of the catalogue before.
      const storage = await openTestStorage(database);
      await testCatalogue(storage).load('update', async (write) => {
        await write(fromCalibreJson({ id: 999, title: 'Omens of another load' }));
      });
      await storage.close();
      const after = await start();
      expect(after.index).toEqual(ready(16, 'database'));
      expect(after.found.total).toBe(good.found.total + 1);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
