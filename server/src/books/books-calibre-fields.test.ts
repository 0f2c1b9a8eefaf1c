import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Book, BookResults } from '../../../contract/books.ts';
import { multipart } from '../test/multipart.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { emptyCatalogue } from '../test/empty-catalogue.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

describe.each(testDialects)('what Calibre has beyond the book’s first fields, on %s', (dialect) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await testAppOn(dialect);
    admin = (await registerUser(t.app)).idToken;
    return t.close;
  });
  beforeEach(() => emptyCatalogue(t.storage));

  const upload = async (file: Buffer, mode = 'replace') => {
    const body = multipart([['name', mode], ['file', file, 'index']]);
    const response = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(admin) } });
    expect(response.statusCode, response.body).toBe(200);
  };
  const getBook = async (id: string) => Book.parse((await t.app.inject({ url: `/api/books/${id}`, headers: bearer(admin) })).json());
  const search = async (keys: string, fields = 'title,author,comment,file_path') => {
    const response = await t.app.inject({ url: '/api/books', query: { keys, fields, size: '100' }, headers: bearer(admin) });
    expect(response.statusCode, response.body).toBe(200);
    return BookResults.parse(response.json());
  };
  const ids = (result: BookResults) => result.books.map((book) => book.id).sort();

  describe.each(['calibre/library.json', 'calibre/books.xml', 'calibre/books.csv', 'calibre/metadata.db'])('from %s', (name) => {
    beforeEach(() => upload(fixture(name)));

    it('keeps series and index, tags, languages, rating, every identifier and the cover’s presence', async () => {
      expect(await getBook('3')).toMatchObject({
        series: 'The Science of Discworld',
        series_index: 1,
        tags: ['Science', 'Fantasy'],
        languages: ['eng'],
        rating: 4,
        identifiers: { isbn: '9780091865153' },
        has_cover: true,
      });
      expect(await getBook('1')).toMatchObject({
        series: null,
        series_index: null,
        tags: ['Roman', 'Classique'],
        languages: ['fra'],
        rating: null,
        identifiers: { amazon: '2070409228', isbn: '9782070409228' },
        identifier: 'isbn:9782070409228',
      });
      expect(await getBook('6')).toMatchObject({ series: '漱石全集', series_index: 1, tags: [] });
      expect(await getBook('14')).toMatchObject({ languages: [], identifiers: {}, has_cover: true });
      expect(await getBook('15')).toMatchObject({ has_cover: false });
    });

    it('finds books by tag and by series in a search of all fields, not in a search of titles', async () => {
      expect(ids(await search('Humour'))).toEqual(['2']);
      expect(ids(await search('Classique'))).toEqual(['1']);
      expect(ids(await search('漱石全集'))).toEqual(['6']);
      expect(ids(await search('Humour', 'title'))).toEqual([]);
    });
  });

  describe('from the library folder’s metadata.db', () => {
    beforeEach(() => upload(fixture('library/metadata.db')));

    it('keeps a fractional series index, several languages in Calibre’s order, a cover set by hand and none', async () => {
      expect(await getBook('4')).toMatchObject({ series: 'Little Nemo', series_index: 1.5, tags: ['Comics'], identifiers: { goodreads: '1180540' } });
      expect(await getBook('3')).toMatchObject({ languages: ['fra', 'eng'] });
      expect(await getBook('2')).toMatchObject({ has_cover: true, series_index: 2, rating: null });
      expect(await getBook('5')).toMatchObject({ has_cover: false, languages: [], tags: [], series: null });
      expect((await getBook('4')).formats).toEqual(['Winsor McCay/Little Nemo in Slumberland (4)/Little Nemo in Slumberland - Winsor McCay.cbz']);
    });

    it('finds a book by its series when another book’s title has the word', async () => {
      expect(ids(await search('discworld'))).toEqual(['1', '2']);
      expect(ids(await search('discworld', 'title'))).toEqual(['1']);
      expect(ids(await search('comics'))).toEqual(['4']);
    });

    it('finds a book by its ISBN typed with hyphens, spaces or neither, whatever fields are chosen', async () => {
      for (const keys of ['978-0-09-188273-0', '9780091882730', '978 0 09 188273 0']) {
        expect(ids(await search(keys, 'title')), keys).toEqual(['2']);
        expect(ids(await search(keys)), keys).toEqual(['2']);
      }
    });
  });

  it('keeps them through its own export, and loads an export made before they existed', async () => {
    await upload(fixture('library/metadata.db'));
    const exported = await t.app.inject({ url: '/api/books/export', headers: bearer(admin) });
    const before = await search('');
    await upload(Buffer.from(exported.body));
    expect(await search('')).toEqual(before);

    const older = { id: '9', title: 'Older', author: 'A', identifier: '', publish_date: null, publisher: '', created: null, updated: null, comment: null, path: 'a.epub', formats: ['a.epub'] };
    await upload(Buffer.from(`${JSON.stringify(older)}\n`), 'update');
    expect(await getBook('9')).toMatchObject({ series: null, series_index: null, tags: [], languages: [], rating: null, identifiers: {}, has_cover: false });
  });
});
