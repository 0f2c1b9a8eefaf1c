import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BookResults, IndexUploadReply } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { multipart } from '../test/multipart.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { emptyCatalogue } from '../test/empty-catalogue.ts';
import { MAX_RECORD_BYTES } from './import/parsed-record.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

/** A text over the record cap (XML counts it within a 16 KB slice). */
const overCap = 'x'.repeat(MAX_RECORD_BYTES + 64 * 1024);
/** A line of the app's own export. */
const jsonl = (id: string, title: string) => JSON.stringify({ id, title, author: '', path: '', formats: [] });

describe.each(testDialects)('index uploads refused on %s', (dialect) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { MAX_UPLOAD_MB: '16' } });
    admin = (await registerUser(t.app)).idToken;
    return t.close;
  });
  beforeEach(async () => {
    await emptyCatalogue(t.storage);
    const loaded = await send([['name', 'replace'], ['file', fixture('calibre/library.json'), 'library.json']]);
    expect(loaded.statusCode, loaded.body).toBe(200);
  });

  const send = (fields: Parameters<typeof multipart>[0]) => {
    const body = multipart(fields);
    return t.app.inject({ method: 'POST', url: '/api/books/index', payload: body.payload, headers: { ...body.headers, ...bearer(admin) } });
  };
  const catalogue = async () => {
    const response = await t.app.inject({ url: '/api/books', query: { keys: '', size: '100', includeComment: 'true' }, headers: bearer(admin) });
    return BookResults.parse(response.json());
  };
  /** Sends the request and checks its refusal left every book as it was. */
  const expectRefused = async (request: () => ReturnType<typeof send>, status: number, message: RegExp) => {
    const before = await catalogue();
    expect(before.total).toBe(15);
    const response = await request();
    expect(response.statusCode, response.body).toBe(status);
    expect(ErrorReply.parse(response.json()).message).toMatch(message);
    expect(await catalogue()).toEqual(before);
  };

  describe('a file that is not a catalogue, even with name=replace', () => {
    it.each([
      ['a Firefox bookmarks backup (JSON)', 'firefox-bookmarks-backup.json', /first line is not a book of this app’s export/],
      ['an npm package.json', 'npm-package.json', /first line is not a book of this app’s export/],
      ['an empty JSON list', 'empty-list.json', /holds no book records/],
      ['a JSON list of other objects', 'foreign-objects.json', /not of Calibre books.*has no "id"/],
      ['a Calibre JSON list whose every record fails', 'every-record-fails.json', /none of its 2 records is a book \(line 2: title: /],
      ['a one-line text file', 'one-line.txt', /not a Calibre CSV catalogue: its first line has no id, title, authors column/],
      ['a Calibre CSV header without rows', 'header-only.csv', /holds no book records/],
      ['a Calibre XML catalogue without records', 'empty-catalogue.xml', /holds no book records/],
    ])('refuses %s with a 400 and changes nothing', async (_, name, message) => {
      const file = fixture(`not-catalogues/${name}`);
      await expectRefused(() => send([['name', 'replace'], ['file', file, name]]), 400, message);
    });
  });

  describe('the upload’s fields', () => {
    const updated = fixture('calibre/library-updated.json');

    it('refuses a file sent before its name, rather than taking it for an update', async () => {
      await expectRefused(() => send([['file', updated, 'x.json'], ['name', 'replace']]), 400, /^Send the field "name" before the file$/);
      await expectRefused(() => send([['file', updated, 'x.json']]), 400, /^Send the field "name" before the file$/);
    });

    it('refuses a name sent twice, before or after the file', async () => {
      await expectRefused(() => send([['name', 'update'], ['file', updated, 'x.json'], ['name', 'bogus']]), 400, /^The field "name" is sent twice$/);
      await expectRefused(() => send([['name', 'update'], ['name', 'replace'], ['file', updated, 'x.json']]), 400, /^The field "name" is sent twice$/);
    });

    it('refuses unknown names, unknown fields and a second file', async () => {
      await expectRefused(() => send([['name', 'bogus'], ['file', updated, 'x.json']]), 400, /^name must be update or replace$/);
      await expectRefused(() => send([['name', 'update'], ['file', updated, 'x.json'], ['extra', '1']]), 400, /^Unknown field "extra"/);
      await expectRefused(() => send([['extra', '1'], ['name', 'update'], ['file', updated, 'x.json']]), 400, /^Unknown field "extra"/);
      await expectRefused(() => send([['name', 'update'], ['file', updated, 'x.json'], ['file', updated, 'y.json']]), 400, /^Send one file only/);
      await expectRefused(() => send([['name', 'update'], ['index', updated, 'x.json']]), 400, /^Unknown file field "index"/);
    });

    it('loads the same file sent properly', async () => {
      const response = await send([['name', 'update'], ['file', updated, 'x.json']]);
      expect(IndexUploadReply.parse(response.json())).toMatchObject({ error_count: 0 });
      expect((await catalogue()).total).toBe(16);
    });
  });

  describe(`a record over ${MAX_RECORD_BYTES / 1024 / 1024} MB`, () => {
    const header = 'id,title,authors\n';
    it.each([
      ['Calibre JSON', `[\n{"id": 1, "title": "Fine"},\n{"id": 2, "title": "${overCap}"}\n]`, 3],
      ['JSON Lines', `${jsonl('1', 'Fine')}\n${jsonl('2', overCap)}\n`, 2],
      ['Calibre XML', `<calibredb>\n<record><id>1</id><title>Fine</title></record>\n<record><id>2</id><title>${overCap}</title></record></calibredb>`, 3],
      ['Calibre CSV', `${header}1,Fine,Someone\n2,${overCap},Someone\n`, 3],
      ['a CSV header without a newline', overCap, 1],
    ])('in %s is a 413 and changes nothing', async (_, content, line) => {
      const file = Buffer.from(content);
      await expectRefused(() => send([['name', 'replace'], ['file', file, 'big']]), 413, new RegExp(`record on line ${line} is larger than 4 MB`));
    });

    it('is not refused when a record holds less', async () => {
      const comment = 'y'.repeat(150_000);
      const response = await send([['name', 'update'], ['file', Buffer.from(`[{"id": 99, "title": "Long", "comments": "${comment}"}]`), 'x.json']]);
      expect(IndexUploadReply.parse(response.json())).toEqual({ total_count: 1, error_count: 0, errors: [] });
    });
  });

  it('answers a CSV over MAX_UPLOAD_MB with a 413 too', async () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => `${1000 + i},Book ${i},${'z'.repeat(80)}`).join('\n');
    await expectRefused(() => send([['name', 'replace'], ['file', Buffer.from(`id,title,authors\n${rows}\n`), 'big.csv']]), 413, /larger than MAX_UPLOAD_MB \(16 MB\)/);
  });
});
