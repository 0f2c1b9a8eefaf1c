import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BookResults, BookSearchPreferences, BrowseReply } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { multipart } from '../test/multipart.ts';
import { bearer, buildTestApp, createTestDatabase, registerUser, type TestApp, testDialects } from '../test/test-app.ts';

const LIBRARY = '/home/reader/Calibre Library';

/** A small household library, as Calibre's JSON export writes it. */
const BOOKS = [
  { id: 1, title: 'The Two Towers', authors: ['J. R. R. Tolkien'], series: 'The Lord of the Rings', series_index: 2, tags: ['Fantasy'], languages: ['eng'], publisher: 'Allen & Unwin', pubdate: '1954-11-11T00:00:00+00:00', timestamp: '2024-01-03T00:00:00+00:00', last_modified: '2024-03-01T00:00:00+00:00', rating: 10, formats: ['epub'] },
  { id: 2, title: 'The Fellowship of the Ring', authors: ['J. R. R. Tolkien'], series: 'The Lord of the Rings', series_index: 1, tags: ['Fantasy', 'Classic'], languages: ['eng'], publisher: 'Allen & Unwin', pubdate: '1954-07-29T00:00:00+00:00', timestamp: '2024-01-01T00:00:00+00:00', last_modified: '2024-03-03T00:00:00+00:00', rating: 8, formats: ['epub', 'pdf'] },
  { id: 3, title: 'The Return of the King', authors: ['J. R. R. Tolkien'], series: 'The Lord of the Rings', series_index: 3, tags: ['Fantasy'], languages: ['eng'], publisher: 'Allen & Unwin', pubdate: '1955-10-20T00:00:00+00:00', timestamp: '2024-01-02T00:00:00+00:00', last_modified: '2024-03-02T00:00:00+00:00', formats: ['mobi'] },
  { id: 4, title: 'Good Omens', authors: ['Terry Pratchett', 'Neil Gaiman'], tags: ['Comedy'], languages: ['eng', 'fra'], publisher: 'Gollancz', pubdate: '1990-05-01T00:00:00+00:00', timestamp: '2024-02-01T00:00:00+00:00', last_modified: '2024-02-01T00:00:00+00:00', rating: 6, formats: ['epub'] },
  { id: 5, title: 'Dracula', authors: ['Bram Stoker'], tags: ['Gothic', 'Classic'], languages: ['eng'], publisher: '', timestamp: '2024-02-02T00:00:00+00:00', last_modified: '2024-01-01T00:00:00+00:00', formats: ['pdf'] },
  { id: 6, title: 'gothic notes', authors: ['Ælfric'], tags: ['gothic'], languages: ['ang'], publisher: '', formats: [] },
].map((book) => ({ ...book, formats: book.formats.map((format) => `${LIBRARY}/${book.authors[0]}/${book.title} (${book.id})/${book.title}.${format}`) }));

describe.each(testDialects)('browsing the books on %s', (dialect) => {
  let t: TestApp;
  let drop: () => Promise<void>;
  let admin: string;
  let reader: string;

  beforeAll(async () => {
    const database = await createTestDatabase(dialect);
    drop = database.drop;
    t = await buildTestApp(database, { env: { ALLOW_SIGNUP: 'true' } });
    admin = (await registerUser(t.app)).idToken;
    reader = (await registerUser(t.app)).idToken;
    await load(BOOKS, 'replace');
  });
  afterAll(async () => {
    await t.close();
    await drop();
  });

  async function load(books: unknown[], mode: 'update' | 'replace') {
    const body = multipart([['name', mode], ['file', Buffer.from(JSON.stringify(books)), 'index']]);
    const loaded = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(admin) } });
    expect(loaded.statusCode, loaded.body).toBe(200);
  }
  const get = (url: string, query: Record<string, string> = {}, token = reader) => t.app.inject({ url, query, headers: bearer(token) });
  const browse = async (facet: string, letter = '') => BrowseReply.parse((await get('/api/books/browse', letter ? { facet, letter } : { facet })).json());
  const titles = async (query: Record<string, string>) => {
    const response = await get('/api/books', query);
    expect(response.statusCode, response.body).toBe(200);
    const results = BookResults.parse(response.json());
    return { total: results.total, titles: results.books.map((book) => book.title) };
  };

  it('lists authors by surname, letter by letter, each author of a book counted apart', async () => {
    const first = await browse('authors');
    expect(first.letters).toEqual([
      { letter: 'G', values: 1 },
      { letter: 'P', values: 1 },
      { letter: 'S', values: 1 },
      { letter: 'T', values: 1 },
      { letter: '#', values: 1 },
    ]);
    expect(first).toMatchObject({ letter: 'G', entries: [{ name: 'Neil Gaiman', count: 1 }] });
    expect((await browse('authors', 'T')).entries).toEqual([{ name: 'J. R. R. Tolkien', count: 3 }]);
    expect((await browse('authors', 'Z')).entries).toEqual([]);
  });

  it('counts series, tags, languages, formats and publishers', async () => {
    expect((await browse('series', 'T')).entries).toEqual([{ name: 'The Lord of the Rings', count: 3 }]);
    expect((await browse('tags', 'G')).entries).toEqual([
      { name: 'gothic', count: 1 },
      { name: 'Gothic', count: 1 },
    ]);
    expect((await browse('tags', 'C')).entries).toEqual([
      { name: 'Classic', count: 2 },
      { name: 'Comedy', count: 1 },
    ]);
    expect((await browse('languages', 'E')).entries).toEqual([{ name: 'eng', count: 5 }]);
    expect((await browse('formats', 'E')).entries).toEqual([{ name: 'epub', count: 3 }]);
    expect((await browse('formats', 'P')).entries).toEqual([{ name: 'pdf', count: 2 }]);
    expect((await browse('publishers')).letters.map(({ letter }) => letter)).toEqual(['A', 'G']);
    expect((await browse('publishers', 'A')).entries).toEqual([{ name: 'Allen & Unwin', count: 3 }]);
  });

  it("lists an author's, a tag's, a language's and a publisher's books, exactly as named", async () => {
    expect(await titles({ author: 'Neil Gaiman' })).toEqual({ total: 1, titles: ['Good Omens'] });
    expect(await titles({ author: 'Terry Pratchett' })).toEqual({ total: 1, titles: ['Good Omens'] });
    expect((await titles({ author: 'Tolkien' })).total).toBe(0);
    expect(await titles({ tag: 'Gothic' })).toEqual({ total: 1, titles: ['Dracula'] });
    expect(await titles({ tag: 'gothic' })).toEqual({ total: 1, titles: ['gothic notes'] });
    expect(await titles({ language: 'fra' })).toEqual({ total: 1, titles: ['Good Omens'] });
    expect(await titles({ publisher: 'Gollancz' })).toEqual({ total: 1, titles: ['Good Omens'] });
    expect(await titles({ tag: 'Classic', format: 'pdf', sort: 'title' })).toEqual({ total: 2, titles: ['Dracula', 'The Fellowship of the Ring'] });
  });

  it('lists a series in its order, and sorts a listing as asked', async () => {
    expect((await titles({ series: 'The Lord of the Rings', sort: 'series' })).titles).toEqual([
      'The Fellowship of the Ring',
      'The Two Towers',
      'The Return of the King',
    ]);
    expect((await titles({ sort: 'title' })).titles).toEqual([
      'Dracula', 'Good Omens', 'gothic notes', 'The Fellowship of the Ring', 'The Return of the King', 'The Two Towers',
    ]);
    expect((await titles({ sort: 'newest', author: 'J. R. R. Tolkien' })).titles).toEqual(['The Two Towers', 'The Return of the King', 'The Fellowship of the Ring']);
    expect((await titles({ sort: 'published' })).titles.slice(0, 2)).toEqual(['Good Omens', 'The Return of the King']);
    expect((await titles({ sort: 'rating' })).titles.slice(0, 3)).toEqual(['The Two Towers', 'The Fellowship of the Ring', 'Good Omens']);
    expect((await titles({ sort: 'author', size: '2' })).titles).toEqual(['Dracula', 'The Fellowship of the Ring']);
    // Without a sort, by last update as the specification's listing is.
    expect((await titles({ author: 'J. R. R. Tolkien' })).titles).toEqual(['The Fellowship of the Ring', 'The Return of the King', 'The Two Towers']);
  });

  it('finds a book by its tag, series or identifier when every field is searched', async () => {
    const everything = 'title,author,series,tags,comment,file_path,identifiers';
    expect((await titles({ keys: 'lord', fields: everything })).total).toBe(3);
    expect((await titles({ keys: 'lord', fields: 'title' })).total).toBe(0);
    expect(await titles({ keys: 'comedy', fields: 'tags' })).toEqual({ total: 1, titles: ['Good Omens'] });
  });

  it('counts again after a load', async () => {
    await load([{ id: 7, title: 'Carmilla', authors: ['Sheridan Le Fanu'], tags: ['Gothic'], formats: [] }], 'update');
    expect((await browse('tags', 'G')).entries).toEqual([
      { name: 'gothic', count: 1 },
      { name: 'Gothic', count: 2 },
    ]);
  });

  it('refuses what it cannot answer, with a clear 400', async () => {
    for (const [url, query, message] of [
      ['/api/books/browse', { facet: 'colours' }, 'must be one of'],
      ['/api/books/browse', {}, 'facet: must be one of'],
      ['/api/books/browse', { facet: 'authors', letter: 'ab' }, 'must be a letter'],
      ['/api/books', { keys: 'ring', sort: 'title' }, 'A search with words is ranked'],
      ['/api/books', { keys: 'ring', author: 'J. R. R. Tolkien' }, 'A search with words is ranked'],
      ['/api/books', { sort: 'colour' }, 'must be one of'],
      ['/api/books', { tag: '' }, 'must not be empty'],
    ] as const) {
      const response = await get(url, query);
      expect(response.statusCode, `${url} ${JSON.stringify(query)}`).toBe(400);
      expect(ErrorReply.parse(response.json()).message).toContain(message);
    }
    expect((await t.app.inject({ url: '/api/books/browse?facet=authors' })).statusCode).toBe(401);
  });

  it("keeps each account's search settings, the specification's defaults until then", async () => {
    const settings = async (token: string) => BookSearchPreferences.parse((await get('/api/books/search-settings', {}, token)).json());
    const defaults = { fields: ['title'], size: 10, format: '', comment: false, sort: 'updated', view: 'list' };
    expect(await settings(reader)).toEqual(defaults);
    const mine = { fields: ['title', 'author', 'tags'], size: 20, format: 'epub', comment: true, sort: 'title', view: 'grid' };
    const put = (body: unknown, token = reader) =>
      t.app.inject({ method: 'PUT', url: '/api/books/search-settings', payload: body as object, headers: bearer(token) });
    expect((await put(mine)).json()).toEqual(mine);
    expect(await settings(reader)).toEqual(mine);
    expect(await settings(admin)).toEqual(defaults);

    for (const bad of [{ ...mine, fields: ['colour'] }, { ...mine, size: 0 }, { ...mine, view: 'table' }, { ...mine, extra: 1 }]) {
      const response = await put(bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await settings(reader)).toEqual(mine);
    expect((await t.app.inject({ url: '/api/books/search-settings' })).statusCode).toBe(401);
  });
});
