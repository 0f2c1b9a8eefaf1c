import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Book, BookResults } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { ContinueReading, ReadingPosition, ReadingPositionReply } from '../../../contract/reading.ts';
import { appWithFixtureLibrary } from '../test/fixture-library.ts';
import { bearer, registerUser, type TestApp, testDialects } from '../test/test-app.ts';

const BOOKS_API_KEY = 'a books key of some length';
const DISCWORLD = '1';
const MISERABLES = '3';

describe.each(testDialects)('reading positions on %s', (dialect) => {
  let t: TestApp;
  let reader: string;
  let other: string;

  const position = (token: string, bookId: string) => t.app.inject({ url: `/api/books/${bookId}/position`, headers: bearer(token) });
  const save = (token: string, bookId: string, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: `/api/books/${bookId}/position`, headers: bearer(token), payload: payload as object });
  const continueReading = async (token: string, query = '') => {
    const response = await t.app.inject({ url: `/api/books/continue${query}`, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return ContinueReading.parse(response.json());
  };

  beforeAll(async () => {
    t = await appWithFixtureLibrary(dialect, { ALLOW_SIGNUP: 'true', BOOKS_API_KEY });
    reader = (await registerUser(t.app)).idToken;
    other = (await registerUser(t.app)).idToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers null before any save, then the position saved, on every later open', async () => {
    expect(ReadingPositionReply.parse((await position(reader, MISERABLES)).json())).toBeNull();
    const saved = await save(reader, MISERABLES, { percentage: 0.42, locator: 'epubcfi(/6/14!/4/2/10/1:0)', device: 'Firefox on a laptop' });
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = {
      bookId: MISERABLES,
      percentage: 0.42,
      locator: 'epubcfi(/6/14!/4/2/10/1:0)',
      device: 'Firefox on a laptop',
      updatedAt: new Date(t.clock.now()).toISOString(),
      source: 'web',
    };
    expect(ReadingPosition.parse(saved.json())).toEqual(expected);
    expect(ReadingPositionReply.parse((await position(reader, MISERABLES)).json())).toEqual(expected);
  });

  it('keeps the newest save: a later one replaces it, an older one changes nothing and is told the kept one', async () => {
    t.clock.advance(60_000);
    const later = new Date(t.clock.now()).toISOString();
    await save(reader, DISCWORLD, { percentage: 0.5, locator: '40', device: 'phone', updatedAt: later });
    const stale = await save(reader, DISCWORLD, {
      percentage: 0.1,
      locator: '8',
      device: 'a tab left open',
      updatedAt: new Date(t.clock.now() - 30_000).toISOString(),
    });
    expect(stale.statusCode).toBe(200);
    expect(ReadingPosition.parse(stale.json())).toMatchObject({ percentage: 0.5, locator: '40', device: 'phone', updatedAt: later });
    t.clock.advance(1000);
    const newer = ReadingPosition.parse((await save(reader, DISCWORLD, { percentage: 0.55, locator: '44', device: 'laptop' })).json());
    expect(newer).toMatchObject({ percentage: 0.55, locator: '44', device: 'laptop' });
  });

  it('takes a time ahead of its own as now, so that a clock ahead cannot hold the position', async () => {
    t.clock.advance(1000);
    const ahead = new Date(t.clock.now() + 3_600_000).toISOString();
    const saved = ReadingPosition.parse((await save(reader, DISCWORLD, { percentage: 0.6, device: 'fast clock', updatedAt: ahead })).json());
    expect(saved.updatedAt).toBe(new Date(t.clock.now()).toISOString());
    t.clock.advance(1000);
    expect(ReadingPosition.parse((await save(reader, DISCWORLD, { percentage: 0.61, device: 'laptop' })).json()).device).toBe('laptop');
  });

  it("never shows one user's position to another", async () => {
    expect(ReadingPositionReply.parse((await position(other, MISERABLES)).json())).toBeNull();
    expect((await continueReading(other)).entries).toEqual([]);
    await save(other, MISERABLES, { percentage: 0.9, device: 'theirs' });
    expect(ReadingPositionReply.parse((await position(reader, MISERABLES)).json())?.percentage).toBe(0.42);
  });

  it('answers 404 for a book not in the catalogue, and keeps nothing', async () => {
    for (const response of [await position(reader, '999'), await save(reader, '999', { percentage: 0.3, device: 'laptop' })]) {
      expect(response.statusCode).toBe(404);
      expect(ErrorReply.parse(response.json()).message).toBe('Book not found');
    }
    expect((await continueReading(reader)).entries.map((entry) => entry.book.id)).not.toContain('999');
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const before = (await position(reader, MISERABLES)).json();
    const bad = [
      { percentage: 1.5, device: 'laptop' },
      { percentage: -0.1, device: 'laptop' },
      { percentage: '0.5', device: 'laptop' },
      { percentage: 0.5 },
      { percentage: 0.5, device: '   ' },
      { percentage: 0.5, device: 'laptop', locator: '' },
      { percentage: 0.5, device: 'laptop', updatedAt: 'yesterday' },
      { percentage: 0.5, device: 'laptop', surplus: true },
      { percentage: 0.5, device: 'x'.repeat(201) },
    ];
    for (const payload of bad) {
      const response = await save(reader, MISERABLES, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(ErrorReply.parse(response.json()).statusCode).toBe(400);
    }
    expect((await position(reader, MISERABLES)).json()).toEqual(before);
    expect((await t.app.inject({ url: '/api/books/continue?limit=0', headers: bearer(reader) })).statusCode).toBe(400);
  });

  it('asks for a sign-in: the books key reads the catalogue, not anyone’s place in it', async () => {
    expect((await t.app.inject({ url: `/api/books/${MISERABLES}/position` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: `/api/books/${MISERABLES}/position`, headers: { 'x-api-key': BOOKS_API_KEY } })).statusCode).toBe(401);
  });

  it('lists Continue reading, the newest position first, each book with its progress', async () => {
    const { entries } = await continueReading(reader);
    expect(entries.map((entry) => [entry.book.id, entry.book.progress, entry.position.percentage])).toEqual([
      [DISCWORLD, 0.61, 0.61],
      [MISERABLES, 0.42, 0.42],
    ]);
    expect(entries[1]!.book.title).toBe('Les Misérables');
    expect((await continueReading(reader, '?limit=1')).entries.map((entry) => entry.book.id)).toEqual([DISCWORLD]);
  });

  it("adds the user's progress to the books' replies: the page's, and the one book's", async () => {
    const page = BookResults.parse((await t.app.inject({ url: '/api/books?size=100', headers: bearer(reader) })).json());
    expect(page.books.length).toBe(6);
    expect(page.progress).toEqual({ [DISCWORLD]: 0.61, [MISERABLES]: 0.42 });
    const theirs = BookResults.parse((await t.app.inject({ url: '/api/books?size=100', headers: bearer(other) })).json());
    expect(theirs.progress).toEqual({ [MISERABLES]: 0.9 });
    const asked = BookResults.parse((await t.app.inject({ url: '/api/books?keys=discworld', headers: bearer(reader) })).json());
    expect(asked.progress).toEqual({ [DISCWORLD]: 0.61 });
    expect(Book.parse((await t.app.inject({ url: `/api/books/${DISCWORLD}`, headers: bearer(reader) })).json()).progress).toBe(0.61);
    expect(Book.parse((await t.app.inject({ url: '/api/books/2', headers: bearer(reader) })).json()).progress).toBeNull();
    // The books key is no one: no progress.
    const keyed = await t.app.inject({ url: `/api/books/${DISCWORLD}`, headers: { 'x-api-key': BOOKS_API_KEY } });
    expect(keyed.json()).not.toHaveProperty('progress');
    const keyedPage = await t.app.inject({ url: '/api/books', headers: { 'x-api-key': BOOKS_API_KEY } });
    expect(keyedPage.json()).not.toHaveProperty('progress');
  });

  it("deletes the account's positions with the account", async () => {
    const leaving = await registerUser(t.app);
    await save(leaving.idToken, MISERABLES, { percentage: 0.2, device: 'laptop' });
    const rows = () => t.storage.db.selectFrom('reading_positions').select('book_id').where('user_id', '=', leaving.user.uid).execute();
    expect(await rows()).toHaveLength(1);
    const deleted = await t.app.inject({ method: 'DELETE', url: '/api/users/me', headers: bearer(leaving.idToken), payload: { email: leaving.user.email } });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await rows()).toEqual([]);
  });
});
