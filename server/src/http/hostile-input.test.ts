import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookResults } from '../../../contract/books.ts';
import { UserRecord } from '../../../contract/users.ts';
import { bookmarksClient, type BookmarksClient } from '../test/bookmarks-client.ts';
import { multipart } from '../test/multipart.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';

/** Folds (NFKC/NFKD) to "株式会社": 700 of them are 2,800 characters, 8,400 bytes, far past PostgreSQL's 2,047-byte word. */
const SQUARE_KABUSHIKI_KAISHA = '㍿';
const ERROR_KEYS = ['error', 'message', 'statusCode'];
/** A book in this API's own JSON Lines shape, which the index upload reads. */
const BOOK = {
  id: 'book',
  title: 'Title',
  author: 'Company',
  identifier: '',
  publish_date: null,
  publisher: '',
  created: null,
  updated: null,
  comment: null,
  path: 'Company/report.epub',
  formats: ['Company/report.epub'],
};

/**
 * docs/behaviour/bad-input-and-limits.md: control characters are stripped at the edge, and search words are capped, so that
 * PostgreSQL answers as SQLite does instead of failing with a 500.
 */
describe.each(testDialects)('hostile input on %s', (dialect) => {
  let t: TestApp;
  let drop: () => Promise<void>;
  let admin: string;
  let alice: BookmarksClient;

  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    drop = database.drop;
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    admin = (await registerUser(t.app)).idToken;
    alice = bookmarksClient(t.app, (await registerUser(t.app)).idToken);
  });
  afterAll(async () => {
    await t.close();
    await drop();
  });

  const expectClientError = (response: { statusCode: number; body: string; json(): unknown }) => {
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(Object.keys(response.json() as object).sort()).toEqual(ERROR_KEYS);
  };

  describe('control characters', () => {
    // A password is the one field left as sent: one holding a control character is refused
    // (auth/registration.test.ts), never changed into another password.
    it('strips U+0000 and the other C0 controls from a sign-up, storing "ab" for "a\\u0000b"', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: { email: 'nul\u0000@example.org', password: 'a long enough password', displayName: 'a\u0000b' },
      });
      expect(response.statusCode, response.body).toBe(200);
      const me = await t.app.inject({ url: '/api/users/me', headers: bearer(response.json().idToken) });
      expect(UserRecord.parse(me.json())).toMatchObject({ displayName: 'ab', email: 'nul@example.org' });
      const login = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'nul@example.org', password: 'a long enough password' },
      });
      expect(login.statusCode, login.body).toBe(200);
    });

    it('keeps tab and newline in a multi-line field, and turns CRLF into a newline', async () => {
      const bookmark = await alice.create({
        title: 'Con\u0001trol\u001f',
        link: 'https://example.org/control',
        note: 'line one\r\n\tline\u0000 two',
      });
      expect(bookmark).toMatchObject({ title: 'Control', note: 'line one\n\tline two' });
    });

    it('strips them from a search query and a search body', async () => {
      await alice.createIndexed({ title: 'Nullable pointers', link: 'https://example.org/nullable' });
      expect((await alice.search({ key_words: ['null\u0000able'] })).total_count).toBe(1);
      const books = await t.app.inject({ url: '/api/books', query: { keys: 'wor\u0000ld' }, headers: bearer(admin) });
      expect(books.statusCode, books.body).toBe(200);
      expect(BookResults.parse(books.json()).total).toBe(0);
    });

    it.each(['/bookmarks/%00', '/bookmarks/1%00', '/api/bookmarks/%00', '/schedule/%00', '/schedule/a%00b', '/api/books/%00', '/api/books/x%00y'])(
      'answers the path id in %s with a 4xx of the one shape',
      async (url) => {
        expectClientError(await t.app.inject({ url, headers: bearer(admin) }));
        expectClientError(await t.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: { type: 'complete' } }));
      },
    );

    it('strips them from the records of an imported catalogue and bookmarks file', async () => {
      const book = { ...BOOK, id: 'nul\u0000book', title: 'Null\u0000 terminated', comment: '<p>a\u0001b</p>' };
      const upload = multipart([['name', 'update'], ['file', `${JSON.stringify(book)}\n`, 'books.jsonl']]);
      const loaded = await t.app.inject({ method: 'POST', url: '/api/books/index', ...upload, headers: { ...upload.headers, ...bearer(admin) } });
      expect(loaded.json()).toMatchObject({ total_count: 1, error_count: 0 });
      const stored = await t.app.inject({ url: '/api/books/nulbook', headers: bearer(admin) });
      expect(stored.json()).toMatchObject({ title: 'Null terminated', comment: '<p>ab</p>' });

      const file = '<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>fold\u0000er</H3>\n<DL><p>\n<DT><A HREF="https://example.org/imported">Im\u0000ported</A>\n</DL><p>\n</DL>\n';
      const bookmarks = multipart([['file', file, 'bookmarks.html']]);
      const imported = await t.app.inject({ method: 'POST', url: '/bookmarks/import', ...bookmarks, headers: { ...bookmarks.headers, ...alice.headers } });
      expect(imported.statusCode, imported.body).toBe(200);
      const found = await alice.search({ key_words: ['imported'] });
      expect(found.bookmarks.map(({ title, tags }) => ({ title, tags }))).toEqual([{ title: 'Imported', tags: ['folder'] }]);
    });

    it('answers a task list cursor that decodes to a control character with a 400', async () => {
      const pagecursor = Buffer.from(JSON.stringify([0, 'a\u0000'])).toString('base64url');
      const response = await t.app.inject({ url: '/schedule', headers: { ...bearer(admin), pagecursor } });
      expect(response.statusCode, response.body).toBe(400);
      expectClientError(response);
    });
  });

  describe('long words', () => {
    const longWord = SQUARE_KABUSHIKI_KAISHA.repeat(700);

    it('searches books with a word that folds past 2,047 bytes', async () => {
      const response = await t.app.inject({ url: '/api/books', query: { keys: longWord }, headers: bearer(admin) });
      expect(response.statusCode, response.body).toBe(200);
    });

    it('finds a book by a long word, capped alike in the index and the query', async () => {
      const book = { ...BOOK, id: 'long-word', title: `${longWord} annual report` };
      const body = multipart([['name', 'update'], ['file', `${JSON.stringify(book)}\n`, 'books.jsonl']]);
      const loaded = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(admin) } });
      expect(loaded.statusCode, loaded.body).toBe(200);
      const found = await t.app.inject({ url: '/api/books', query: { keys: `${longWord},annual` }, headers: bearer(admin) });
      expect(found.statusCode, found.body).toBe(200);
      expect(BookResults.parse(found.json()).books.map((b) => b.id)).toEqual(['long-word']);
    });

    it('searches and indexes bookmarks with such words', async () => {
      const word = SQUARE_KABUSHIKI_KAISHA.repeat(200);
      await alice.createIndexed({ title: `${word} holdings`, link: 'https://example.org/holdings' });
      const result = await alice.search({ key_words: [word] });
      expect(result.bookmarks.map((bookmark) => bookmark.title)).toEqual([`${word} holdings`]);
    });
  });
});
