import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthReply } from '../../../contract/auth.ts';
import { type Book, BookResults, IndexUploadReply } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { RANKED_MATCH_LIMIT } from './book-ranking.ts';
import { FOLDING_EXAMPLES } from '../search/folding-examples.ts';
import {
  bearer,
  buildTestApp,
  createTestDatabase,
  registerUser,
  type TestApp,
  type TestDatabase,
  testDialects,
} from '../test/test-app.ts';
import { multipart } from '../test/multipart.ts';
import { emptyCatalogue } from '../test/empty-catalogue.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures/calibre');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const API_KEY = 'a-shared-key-for-readers';

describe.each(testDialects)('books on %s', (dialect) => {
  let t: TestApp;
  let database: TestDatabase;
  let admin: string;
  let reader: string;

  // One app for the file; every test starts from an empty catalogue.
  beforeAll(async () => {
    const created = await createTestDatabase(dialect);
    database = created;
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true', BOOKS_API_KEY: API_KEY, MAX_UPLOAD_MB: '1' } });
    admin = (await registerUser(t.app)).idToken;
    reader = (await registerUser(t.app)).idToken;
    return async () => {
      await t.close();
      await created.drop();
    };
  });
  beforeEach(async () => {
    await emptyCatalogue(t.storage);
  });

  const upload = (file: Buffer, mode = 'update', token = admin) => {
    const body = multipart([['name', mode], ['file', file, 'index']]);
    return t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(token) } });
  };
  const load = async (name: string, mode = 'update') => {
    const response = await upload(fixture(name), mode);
    expect(response.statusCode, response.body).toBe(200);
    return IndexUploadReply.parse(response.json());
  };
  const search = async (query: Record<string, string | number | boolean>, token = reader) => {
    const response = await t.app.inject({
      url: '/api/books',
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return BookResults.parse(response.json());
  };
  const titles = (result: { books: Book[] }) => result.books.map((book) => book.title);
  const getBook = async (id: string) => {
    const response = await t.app.inject({ url: `/api/books/${id}`, headers: bearer(reader) });
    return response;
  };

  describe('import', () => {
    it.each(['library.json', 'books.xml', 'books.csv', 'metadata.db'])('reads Calibre’s %s, told by its content', async (name) => {
      expect(await load(name, 'replace')).toEqual({ total_count: 15, error_count: 0, errors: [] });
      const book = (await getBook('1')).json();
      expect(book).toMatchObject({
        id: '1',
        title: 'Les Misérables',
        author: 'Victor Hugo',
        identifier: 'isbn:9782070409228',
        publish_date: '1862-04-03',
        publisher: 'Gallimard',
      });
      expect(book.created).toMatch(/^2\d{3}-\d\d-\d\dT/);
      expect(book.formats).toHaveLength(3);
      const multi = (await getBook('3')).json();
      expect(multi.author).toBe('Terry Pratchett & Ian Stewart & Jack Cohen');
      expect((await getBook('12')).json().publish_date).toBeNull();
      expect((await getBook('7')).json().identifier).toBe('goodreads:1002281');
      expect((await getBook('14')).json()).toMatchObject({ identifier: '', author: 'Martin Luther King, Jr.' });
      expect((await getBook('15')).json()).toMatchObject({ path: '', formats: [] });
    });

    it('chooses the same identifier for every book from every export kind', async () => {
      const identifiers = async (name: string) => {
        await load(name, 'replace');
        const all = await search({ keys: '', size: 100 });
        return Object.fromEntries(all.books.map((book) => [book.id, book.identifier]));
      };
      const fromJson = await identifiers('library.json');
      expect(fromJson['10']).toBe('isbn:9783150035917');
      for (const name of ['books.xml', 'books.csv', 'metadata.db']) expect(await identifiers(name), name).toEqual(fromJson);
      // A book without an ISBN: the CSV lists its identifiers in Calibre's row order, the JSON sorted.
      const csv = 'id,title,authors,identifiers\n1,Unnumbered,Someone,"goodreads:7,amazon:B01"\n';
      const json = [{ id: 1, title: 'Unnumbered', authors: ['Someone'], identifiers: { amazon: 'B01', goodreads: '7' } }];
      expect(await upload(Buffer.from(csv), 'replace')).toMatchObject({ statusCode: 200 });
      expect((await getBook('1')).json().identifier).toBe('amazon:B01');
      expect(await upload(Buffer.from(JSON.stringify(json)), 'replace')).toMatchObject({ statusCode: 200 });
      expect((await getBook('1')).json().identifier).toBe('amazon:B01');
    });

    it('keeps full paths, HTML comments and last-modified from the JSON, the epub as the main path', async () => {
      await load('library.json');
      const book = (await getBook('1')).json();
      expect(book.path).toMatch(/Les Miserables - Victor Hugo\.epub$/);
      expect(book.formats.map((file: string) => file.split('.').pop())).toEqual(['epub', 'mobi', 'pdf']);
      expect(book.comment).toContain('<b>Victor Hugo</b>');
      expect(book.updated).toMatch(/^2\d{3}-/);
      const pdfOnly = (await getBook('5')).json();
      expect(pdfOnly.path).toMatch(/\.pdf$/);
    });

    it('keeps what the CSV has: format extensions, plain-text comments, no last-modified', async () => {
      await load('books.csv');
      const book = (await getBook('1')).json();
      expect(book).toMatchObject({ path: 'epub', formats: ['epub', 'mobi', 'pdf'], updated: null });
      expect(book.comment).not.toContain('<b>');
      expect(book.comment).toContain('Victor Hugo');
    });

    it('builds metadata.db paths as <book path>/<file name>.<format>', async () => {
      await load('metadata.db');
      expect((await getBook('1')).json().path).toBe('Victor Hugo/Les Miserables (1)/Les Miserables - Victor Hugo.epub');
    });

    it('upserts with update and swaps everything with replace', async () => {
      await load('library.json');
      expect(await load('library-updated.json')).toMatchObject({ error_count: 0 });
      expect((await getBook('2')).json().title).toMatch(/^Good Omens: The Nice and Accurate Prophecies/);
      expect((await getBook('16')).statusCode).toBe(200);
      expect((await getBook('11')).statusCode).toBe(200);
      expect((await search({ keys: '' })).total).toBe(16);
      await load('library-updated.json', 'replace');
      expect((await getBook('11')).statusCode).toBe(404);
      expect((await search({ keys: '' })).total).toBe(15);
      expect((await search({ keys: 'prozess,kafka', fields: 'title,author' })).total).toBe(0);
    });

    it('never answers from a result that a later load made stale', async () => {
      await load('library.json');
      expect(titles(await search({ keys: 'omens' }))).toEqual(['Good Omens']);
      await load('library-updated.json');
      expect(titles(await search({ keys: 'omens' }))[0]).toMatch(/^Good Omens: The Nice/);
    });

    it.runIf(dialect === 'postgres')('sees a load made through another server instance', async () => {
      await load('library.json');
      expect(titles(await search({ keys: 'omens' }))).toEqual(['Good Omens']);
      const other = await buildTestApp(database);
      try {
        const body = multipart([['name', 'update'], ['file', fixture('library-updated.json'), 'index']]);
        const loaded = await other.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(admin) } });
        expect(loaded.statusCode).toBe(200);
      } finally {
        await other.close();
      }
      expect(titles(await search({ keys: 'omens' }))[0]).toMatch(/^Good Omens: The Nice/);
    });

    it('round-trips through its own JSON Lines export', async () => {
      await load('library.json');
      const exported = await t.app.inject({ url: '/api/books/export', headers: bearer(reader) });
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-type']).toMatch(/ndjson/);
      const lines = exported.body.trim().split('\n');
      expect(lines).toHaveLength(15);
      const before = await search({ keys: '', size: 100, includeComment: true });
      expect(await load('library.json', 'replace')).toMatchObject({ total_count: 15 });
      const response = await upload(Buffer.from(exported.body), 'replace');
      expect(IndexUploadReply.parse(response.json())).toEqual({ total_count: 15, error_count: 0, errors: [] });
      expect(await search({ keys: '', size: 100, includeComment: true })).toEqual(before);
    });

    it('reports bad records by line and loads the rest', async () => {
      const file = Buffer.from(
        '[\n  {"id": 1, "title": "Good"},\n  {"title": "No id"},\n  {"id": 3, "title": "Bad formats", "formats": "x"},\n' +
          `  {"id": 4, "title": "${'x'.repeat(2001)}"}\n]\n`,
      );
      const reply = IndexUploadReply.parse((await upload(file)).json());
      expect(reply.total_count).toBe(4);
      expect(reply.error_count).toBe(2);
      expect(reply.errors.map((error) => error.line)).toEqual([3, 5]);
      expect(reply.errors[0]?.message).toMatch(/id/);
      expect(reply.errors[1]?.message).toMatch(/^title: /);
      expect((await search({ keys: '' })).total).toBe(2);
    });

    it.each([
      ['a truncated JSON list', '[\n  {"id": 1, "title": "One"},\n  {"id": 2, "title": "Tw'],
      ['an unclosed JSON list', '[\n  {"id": 1, "title": "One"}\n'],
      ['text after the list', '[{"id": 1, "title": "One"}] trailing'],
      ['an empty file', ''],
      ['a CSV without the Calibre columns', 'name,size\nx,1\n'],
      ['a CSV with a broken quote', 'id,title,authors\n1,"One,Someone\n'],
      ['XML that is not a catalogue', '<html><body>hi</body></html>'],
      ['broken XML', '<calibredb><record><id>1</id><title>One</title></record>'],
      ['binary noise', Buffer.from([0, 1, 2, 3, 255, 254, 0, 7])],
      ['a SQLite file that is not a Calibre library', 'SQLite format 3\0' + 'x'.repeat(200)],
    ])('answers %s with a 400 and changes nothing', async (_, content) => {
      await load('library.json');
      const before = await search({ keys: '', size: 100 });
      const response = await upload(Buffer.isBuffer(content) ? content : Buffer.from(content), 'replace');
      expect(response.statusCode).toBe(400);
      expect(ErrorReply.parse(response.json()).message).toMatch(/^The index file cannot be read: /);
      expect(await search({ keys: '', size: 100 })).toEqual(before);
    });

    it('refuses an upload over MAX_UPLOAD_MB with a 413, changing nothing', async () => {
      await load('library.json');
      const record = (id: number) => JSON.stringify({ id, title: `Book ${id}`, comments: 'x'.repeat(1000) });
      const big = Buffer.from(`[${Array.from({ length: 1200 }, (_, i) => record(100 + i)).join(',\n')}]`);
      const response = await upload(big, 'replace');
      expect(response.statusCode).toBe(413);
      expect((await search({ keys: '' })).total).toBe(15);
    });

    it('lets only admins upload', async () => {
      expect((await upload(fixture('library.json'), 'update', reader)).statusCode).toBe(403);
      const withKey = multipart([['name', 'update'], ['file', fixture('library.json'), 'index']]);
      const keyed = await t.app.inject({
        method: 'POST',
        url: '/api/books/index',
        ...withKey,
        headers: { ...withKey.headers, 'x-api-key': API_KEY },
      });
      expect(keyed.statusCode).toBe(403);
      expect((await search({ keys: '' })).total).toBe(0);
    });

    it('follows the account as it is now, not its token: unmade, an administrator loads and cancels nothing', async () => {
      expect((await upload(fixture('library.json'), 'replace')).statusCode).toBe(200);
      const before = (await search({ keys: '' })).total;
      const setAdmin = (uid: string, made: boolean) =>
        t.app.inject({ method: 'PUT', url: `/api/admin/users/${uid}`, payload: { admin: made }, headers: bearer(admin) });
      const carol = await registerUser(t.app);
      expect((await setAdmin(carol.user.uid, true)).statusCode).toBe(200);
      const signedIn = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: carol.user.email, password: carol.password } });
      const carolAsAdmin = AuthReply.parse(signedIn.json());
      expect(carolAsAdmin.user.admin).toBe(true);
      expect((await setAdmin(carol.user.uid, false)).statusCode).toBe(200);

      const replaced = await upload(Buffer.from('[{"id": "only", "title": "The only book left"}]'), 'replace', carolAsAdmin.idToken);
      expect(replaced.statusCode, replaced.body).toBe(403);
      expect(ErrorReply.parse(replaced.json()).message).toBe('Only administrators may load the catalogue');
      const cancelled = await t.app.inject({ method: 'DELETE', url: '/api/books/index/no-such-load', headers: bearer(carolAsAdmin.idToken) });
      expect(cancelled.statusCode).toBe(403);
      expect((await search({ keys: '' })).total).toBe(before);

      // Made administrator, a user's token issued before loads at once.
      const dave = await registerUser(t.app);
      expect((await setAdmin(dave.user.uid, true)).statusCode).toBe(200);
      expect((await upload(fixture('library.json'), 'update', dave.idToken)).statusCode).toBe(200);
    });

    it('refuses a bad mode and a missing file', async () => {
      expect((await upload(fixture('library.json'), 'merge')).statusCode).toBe(400);
      const noFile = multipart([['name', 'update']]);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/books/index',
        ...noFile,
        headers: { ...noFile.headers, ...bearer(admin) },
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('search', () => {
    beforeEach(async () => {
      await load('library.json');
    });

    it('ignores accents and case, and matches prefixes', async () => {
      expect(titles(await search({ keys: 'miserables' }))).toEqual(['Les Misérables']);
      expect(titles(await search({ keys: 'MISÉR' }))).toEqual(['Les Misérables']);
      expect(titles(await search({ keys: 'fraulein' }))).toEqual(['Fräulein Else']);
      expect(titles(await search({ keys: 'война' }))).toEqual(['Война и мир']);
      expect(titles(await search({ keys: 'ιλιαδα' }))).toEqual(['Ομήρου Ιλιάδα']);
    });

    it('folds the Latin letters that NFKD leaves whole, in indexing and searching alike', async () => {
      const books = FOLDING_EXAMPLES.map(([written], n) => ({ id: 200 + n, title: written, authors: ['Ann Other'] }));
      expect((await upload(Buffer.from(JSON.stringify(books)), 'replace')).statusCode).toBe(200);
      for (const [written, typed] of FOLDING_EXAMPLES) {
        expect(titles(await search({ keys: typed })), typed).toEqual([written]);
        expect(titles(await search({ keys: written.toUpperCase() })), written).toEqual([written]);
      }
    });

    it('requires every word in all four fields, whichever word is missing', async () => {
      const all = 'title,author,comment,file_path';
      expect((await search({ keys: 'xqzt,saturday', fields: all })).total).toBe(0);
      expect((await search({ keys: 'saturday,xqzt', fields: all })).total).toBe(0);
      expect(titles(await search({ keys: 'saturday,omens', fields: all }))).toEqual(['Good Omens']);
      expect(titles(await search({ keys: 'omens,saturday,epub', fields: all }))).toEqual(['Good Omens']);
    });

    it('indexes file paths below the Calibre library, and shows them whole', async () => {
      for (const word of ['tmp', 'organiser', 'fixtures', 'calibre', 'library']) {
        expect((await search({ keys: word, fields: 'file_path' })).total, word).toBe(0);
      }
      expect(titles(await search({ keys: 'hugo,miserables,1', fields: 'file_path' }))).toEqual(['Les Misérables']);
      expect((await getBook('1')).json().path).toBe(
        '/tmp/organiser-calibre-fixtures/Calibre Library/Victor Hugo/Les Miserables (1)/Les Miserables - Victor Hugo.epub',
      );
      // One letter finds the books with a word of that letter below the library, not every book.
      expect(titles(await search({ keys: 'l', fields: 'file_path', size: 100 })).sort()).toEqual(['Les Misérables', 'Strength to Love', 'Война и мир', '红楼梦']);
      await load('library-updated.json');
      expect(titles(await search({ keys: 'prophecies', fields: 'file_path' }))).toEqual([
        'Good Omens: The Nice and Accurate Prophecies of Agnes Nutter, Witch',
      ]);
      expect((await search({ keys: 'library', fields: 'file_path' })).total).toBe(0);
      await load('metadata.db', 'replace');
      expect(titles(await search({ keys: 'hugo,epub', fields: 'file_path' }))).toEqual(['Les Misérables']);
    });

    it('finds a book by its identifier typed whole, with or without hyphens, whatever the fields', async () => {
      for (const keys of ['9782070409228', '978-2-07-040922-8', '978 2 07 040922 8']) {
        expect(titles(await search({ keys })), keys).toEqual(['Les Misérables']);
        expect(titles(await search({ keys, fields: 'comment' })), keys).toEqual(['Les Misérables']);
      }
      expect(titles(await search({ keys: '1002281', fields: 'author' }))).toEqual(['زقاق المدق']);
      expect((await search({ keys: '978-2-07' })).total).toBe(0);
      expect((await search({ keys: '9782070409228', format: 'chm' })).total).toBe(0);
      // A word search still counts the identifier's book once when both match.
      const books = [
        { id: 1, title: 'Nineteen Eighty-Four 1984', identifiers: { goodreads: '1984' } },
        { id: 2, title: '1984', identifiers: { isbn: '9780451524935' } },
      ];
      expect((await upload(Buffer.from(JSON.stringify(books)), 'replace')).statusCode).toBe(200);
      expect(titles(await search({ keys: '1984' }))).toEqual(['1984', 'Nineteen Eighty-Four 1984']);
      expect((await search({ keys: '1984', fields: 'author' })).total).toBe(1);
    });

    it('ANDs the words, each in any chosen field', async () => {
      expect(titles(await search({ keys: 'good,omens' }))).toEqual(['Good Omens']);
      expect(titles(await search({ keys: 'good,gaiman', fields: 'title,author' }))).toEqual(['Good Omens']);
      expect((await search({ keys: 'good,gaiman', fields: 'title' })).total).toBe(0);
    });

    it('searches only the chosen fields', async () => {
      expect((await search({ keys: 'pratchett' })).total).toBe(0);
      expect(titles(await search({ keys: 'pratchett', fields: 'author' })).sort()).toEqual(['Good Omens', 'The Science of Discworld']);
      expect(titles(await search({ keys: 'valjean', fields: 'comment' }))).toEqual(['Les Misérables']);
      expect(titles(await search({ keys: 'miserables,mobi', fields: 'file_path' }))).toEqual(['Les Misérables']);
    });

    it('ranks shorter titles first, and a title match above an author match', async () => {
      // Listed so that catalogue order is the opposite of the expected ranking.
      const books = [
        { id: 101, title: 'A long tale of the river and the sea', authors: ['Ann Other'] },
        { id: 102, title: 'The river', authors: ['Ann Other'] },
        { id: 103, title: 'Memoirs', authors: ['Victor Hugo'] },
        { id: 104, title: 'Hugo, a life', authors: ['Ann Other'] },
      ];
      expect((await upload(Buffer.from(JSON.stringify(books)), 'replace')).statusCode).toBe(200);
      expect(titles(await search({ keys: 'river' }))).toEqual(['The river', 'A long tale of the river and the sea']);
      expect(titles(await search({ keys: 'hugo', fields: 'title,author' }))).toEqual(['Hugo, a life', 'Memoirs']);
      expect(titles(await search({ keys: 'hugo', fields: 'title,author,comment' }))).toEqual(['Hugo, a life', 'Memoirs']);
    });

    it('ranks a title match above an author or comment match', async () => {
      const result = await search({ keys: 'hugo', fields: 'title,author,comment' });
      expect(result.total).toBeGreaterThan(0);
      expect(titles(await search({ keys: 'tristesse', fields: 'title,comment' }))[0]).toBe('Bonjour tristesse');
    });

    it('filters by format', async () => {
      const chm = await search({ keys: '', format: 'chm' });
      expect(titles(chm)).toEqual(['Cien años de soledad']);
      const azw3 = await search({ keys: '', format: 'azw3', size: 100 });
      expect(titles(azw3).sort()).toEqual(['Good Omens', 'Über die Freiheit', 'Война и мир'].sort());
      expect((await search({ keys: 'omens', format: 'pdf' })).total).toBe(0);
    });

    it('lists by last update when there are no keys, paging with index = from + position', async () => {
      const all = await search({ keys: '', size: 100 });
      expect(all.total).toBe(15);
      const updated = all.books.map((book) => book.updated ?? '');
      expect(updated).toEqual([...updated].sort().reverse());
      const page = await search({ keys: '', from: 10, size: 3 });
      expect(page.total).toBe(15);
      expect(page.books.map((book) => book.index)).toEqual([10, 11, 12]);
      expect(page.books.map((book) => book.id)).toEqual(all.books.slice(10, 13).map((book) => book.id));
    });

    it('leaves comments out unless includeComment=true', async () => {
      expect((await search({ keys: 'miserables' })).books[0]).not.toHaveProperty('comment');
      expect((await search({ keys: 'miserables', includeComment: true })).books[0]?.comment).toContain('Valjean');
    });

    it.each([
      '"', '""', "'", '*', '-', '-miserables', 'NEAR', 'AND', 'OR', 'NOT', '(', ')', '(miserables', ':', 'title:miserables',
      '^', '{title}', 'c++', '"quotes" & (parens)', 'near(a b)', '\\', '%', '%23', '#', '\u0000', '😀', ' , , ',
    ])('takes %j literally, never failing', async (keys) => {
      const result = await search({ keys, fields: 'title,author,comment,file_path' });
      expect(result.total).toBeGreaterThanOrEqual(0);
    });

    it('finds the title full of syntax characters by its words', async () => {
      expect(titles(await search({ keys: 'c++,"quotes",(parens),near,and,or' }))).toEqual([
        'C++: "Quotes" & (Parens) - NEAR AND OR *',
      ]);
    });

    it.each([
      [{ size: 101 }, /^querystring size: must be at most 100$/],
      [{ size: 0 }, /size: must be at least 1/],
      [{ size: 'ten' }, /size: must be a number/],
      [{ from: -1 }, /from: must be 0 or more/],
      [{ from: 1.5 }, /from: must be a whole number/],
      [{ format: 'docx' }, /format: must be empty or one of/],
      [{ fields: 'title,isbn' }, /fields/],
      [{ includeComment: 'yes' }, /includeComment: must be true or false/],
      [{ order: 'title' }, /Unrecognized key: "order"/],
    ])('answers %j with a 400', async (query, message) => {
      const response = await t.app.inject({
        url: '/api/books',
        query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
        headers: bearer(reader),
      });
      expect(response.statusCode).toBe(400);
      expect(ErrorReply.parse(response.json()).message).toMatch(message);
    });

    it('answers an unknown id with a 404', async () => {
      expect((await getBook('999')).statusCode).toBe(404);
    });

    it('is readable with X-API-Key, and by nobody else', async () => {
      const keyed = await t.app.inject({ url: '/api/books?keys=omens', headers: { 'x-api-key': API_KEY } });
      expect(keyed.statusCode).toBe(200);
      expect(keyed.json().total).toBe(1);
      for (const headers of [{}, { 'x-api-key': 'a-wrong-key-for-readers' }, { authorization: 'Bearer nope' }]) {
        expect((await t.app.inject({ url: '/api/books?keys=omens', headers })).statusCode).toBe(401);
      }
    });
  });

  it('shows readers the whole old catalogue until a replace commits', async () => {
    await load('library.json');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const records = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: 1000 + i, title: `New ${i}` }));
    async function* slowFile() {
      yield Buffer.from(`[${records.slice(0, 2000).join(',')},`);
      await gate;
      yield Buffer.from(`${records.slice(2000).join(',')}]`);
    }
    const { Readable } = await import('node:stream');
    const { createBooksService } = await import('./books.service.ts');
    const { searchedTestCatalogue } = await import('../test/empty-catalogue.ts');
    const catalogue = searchedTestCatalogue(t.storage);
    const { createCatalogueLoads } = await import('./catalogue-loads.ts');
    const { createLocalLoadSharing } = await import('./catalogue-load-sharing.ts');
    const { systemClock } = await import('../clock.ts');
    const loads = createCatalogueLoads({ clock: systemClock, sharing: createLocalLoadSharing() });
    const service = createBooksService({ catalogue, tmpDir: path.join(path.dirname(t.storage.sqliteFile ?? '/tmp/x'), 'tmp'), loads });
    const loading = service.upload('replace', Readable.from(slowFile()), { totalBytes: null, requestGone: new AbortController().signal });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await search({ keys: '' })).total).toBe(15);
    expect((await search({ keys: 'miserables' })).total).toBe(1);
    release();
    expect(await loading).toMatchObject({ total_count: 3000, error_count: 0 });
    expect((await search({ keys: '' })).total).toBe(3000);
  });
});

describe.each(testDialects)('a search with very many matches on %s', (dialect) => {
  it(`lists more than ${RANKED_MATCH_LIMIT} matches in reverse catalogue order, counted exactly, paged`, async () => {
    const database = await createTestDatabase(dialect);
    const t = await buildTestApp(database);
    try {
      const { idToken } = await registerUser(t.app);
      const count = RANKED_MATCH_LIMIT + 10;
      const records = Array.from({ length: count }, (_, i) =>
        JSON.stringify({ id: i + 1, title: i % 2 === 0 ? `The common word ${i}` : `The common word and more words ${i}` }),
      );
      const body = multipart([['name', 'replace'], ['file', Buffer.from(`[${records.join(',\n')}]`), 'index']]);
      const loaded = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(idToken) } });
      expect(loaded.json()).toMatchObject({ total_count: count, error_count: 0 });
      const page = await t.app.inject({ url: '/api/books?keys=common&from=2&size=3', headers: bearer(idToken) });
      const result = BookResults.parse(page.json());
      expect(result.total).toBe(count);
      expect(result.books.map((book) => [book.index, book.id])).toEqual([
        [2, String(count - 2)],
        [3, String(count - 3)],
        [4, String(count - 4)],
      ]);
      const ranked = BookResults.parse((await t.app.inject({ url: '/api/books?keys=common,more,5001', headers: bearer(idToken) })).json());
      expect(ranked.books.map((book) => book.id)).toEqual(['5002']);
    } finally {
      await t.close();
      await database.drop();
    }
  });
});
