import fs from 'node:fs';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookResults, CatalogueBook } from '../../../contract/books.ts';
import { migrate, openStorage } from '../storage/database.ts';
import { migrationProvider } from '../storage/migration-provider.ts';
import { catalogueBook } from '../test/catalogue-book.ts';
import { bearer, createTestDatabase, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { multipart } from '../test/multipart.ts';
import { createPostgresCatalogue } from './catalogue.postgres.ts';
import { createSqliteCatalogue } from './catalogue.sqlite.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures/calibre');
/** Where calibre made the fixture library (make-calibre-fixtures.sh). */
const FIXTURE_LIBRARY = '/tmp/organiser-calibre-fixtures/Calibre Library';

const book = (id: string, formats: string[]): CatalogueBook => catalogueBook({ id, comment: null, path: formats[0] ?? '', formats });
const jsonLines = (books: CatalogueBook[]) => Buffer.from(books.map((one) => `${JSON.stringify(one)}\n`).join(''));

describe.each(testDialects)('the library folder on %s', (dialect) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    admin = (await registerUser(t.app)).idToken;
  });
  afterAll(async () => {
    await t?.close();
  });

  const load = async (file: Buffer, mode: 'update' | 'replace') => {
    const body = multipart([['name', mode], ['file', file, 'index']]);
    const response = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(admin) } });
    expect(response.statusCode, response.body).toBe(200);
  };
  const folder = async (keys = '') => {
    const response = await t.app.inject({ url: '/api/books', query: { keys }, headers: bearer(admin) });
    expect(response.statusCode, response.body).toBe(200);
    return BookResults.parse(response.json()).library_folder;
  };

  it('is the Calibre library of an export, with every search’s reply', async () => {
    await load(fs.readFileSync(path.join(FIXTURES, 'library.json')), 'replace');
    expect(await folder()).toBe(FIXTURE_LIBRARY);
    expect(await folder('miserables')).toBe(FIXTURE_LIBRARY);
    expect(await folder('nothing-matches-this')).toBe(FIXTURE_LIBRARY);
  });

  it('is described in the API description', async () => {
    const spec = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const reply = spec.paths['/api/books'].get.responses['200'].content['application/json'].schema;
    expect(reply.required).toContain('library_folder');
    expect(reply.properties.library_folder.description).toMatch(/Calibre library/);
  });

  it('is none for exports whose paths start at the library or are format names', async () => {
    await load(fs.readFileSync(path.join(FIXTURES, 'metadata.db')), 'replace');
    expect(await folder()).toBe('');
    await load(fs.readFileSync(path.join(FIXTURES, 'library.json')), 'replace');
    await load(fs.readFileSync(path.join(FIXTURES, 'books.csv')), 'replace');
    expect(await folder()).toBe('');
  });

  it('is the library of a catalogue of one author, not the author’s folder', async () => {
    await load(jsonLines([book('1', ['/srv/Calibre/Ann Other/One (1)/One.epub']), book('2', ['/srv/Calibre/Ann Other/Two (2)/Two.pdf'])]), 'replace');
    expect(await folder()).toBe('/srv/Calibre');
  });

  it('shortens with an update from elsewhere, and starts afresh with a replace', async () => {
    await load(jsonLines([book('1', ['/srv/Calibre/Ann Other/One (1)/One.epub'])]), 'replace');
    await load(jsonLines([book('3', ['/srv/Other/Bo/Three (3)/Three.epub'])]), 'update');
    expect(await folder()).toBe('/srv');
    await load(jsonLines([book('4', ['/data/Library/Cy/Four (4)/Four.epub'])]), 'replace');
    expect(await folder()).toBe('/data/Library');
  });

  it('is none while no book has a file, and does not stay none when files come', async () => {
    await load(jsonLines([book('1', [])]), 'replace');
    expect(await folder()).toBe('');
    await load(jsonLines([book('2', ['/srv/Calibre/Ann Other/Two (2)/Two.pdf'])]), 'update');
    expect(await folder()).toBe('/srv/Calibre');
  });
});

describe.each(testDialects)('migration 0011 on %s', (dialect) => {
  it('finds the library folder of a catalogue loaded before it', async () => {
    const database = await createTestDatabase(dialect);
    const storage = await openStorage(database);
    try {
      const migrator = new Migrator({
        db: storage.db,
        provider: migrationProvider(dialect),
        ...(database.postgresSchema ? { migrationTableSchema: database.postgresSchema } : {}),
      });
      expect((await migrator.migrateTo('0010-bookmark-tags-any-case')).error).toBeUndefined();
      const files = ['/home/me/Calibre Library/Ann Other/One (1)/One.epub', '/home/me/Calibre Library/Bo/Two (2)/Two.pdf'];
      for (const [at, file] of files.entries()) {
        await sql`insert into books (id, title, author, identifier, publisher, path, formats, format_mask, title_words
          ${dialect === 'postgres' ? sql`, search` : sql``})
          values (${String(at + 1)}, 'T', 'A', '', '', ${file}, ${JSON.stringify([file])}, 2, 1
          ${dialect === 'postgres' ? sql`, ''::tsvector` : sql``})`.execute(storage.db);
      }

      await migrate(storage);

      const catalogue = storage.sqliteFile ? createSqliteCatalogue(storage.db, storage.sqliteFile) : createPostgresCatalogue(storage.db, storage.postgres!);
      try {
        expect(await catalogue.libraryFolder()).toBe('/home/me/Calibre Library');
      } finally {
        await catalogue.close();
      }
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});
