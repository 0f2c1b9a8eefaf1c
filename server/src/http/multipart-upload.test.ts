import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BookmarkImportReply } from '../../../contract/bookmarks.ts';
import { BookResults } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { multipart } from '../test/multipart.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';

const BOOKMARKS = fs.readFileSync(path.join(import.meta.dirname, '../bookmarks/fixtures/firefox-bookmarks.html'));
const CATALOGUE = fs.readFileSync(path.join(import.meta.dirname, '../books/fixtures/calibre/library.json'));

/** A multipart body written by hand, for the malformed ones no client would send. */
function rawBody(boundary: string, fields: Array<[name: string, value: string | Buffer, filename?: string]>, closed = true) {
  const parts = fields.map(([name, value, filename]) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n`),
      Buffer.from(value),
      Buffer.from('\r\n'),
    ]),
  );
  return Buffer.concat([...parts, Buffer.from(closed ? `--${boundary}--\r\n` : '')]);
}

describe.each(testDialects)('uploads on %s', (dialect) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await testAppOn(dialect);
    token = (await registerUser(t.app)).idToken;
    return t.close;
  });

  const post = (url: string, payload: Buffer, contentType: string) =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType, ...bearer(token) } });
  const bookmarkCount = async () =>
    (await t.app.inject({ url: '/bookmarks/?pageSize=100', headers: bearer(token) })).json().items.length as number;
  const bookCount = async () =>
    BookResults.parse((await t.app.inject({ url: '/api/books', headers: bearer(token) })).json()).total;

  describe('the bookmark import', () => {
    const send = (fields: Parameters<typeof multipart>[0]) => {
      const body = multipart(fields);
      return post('/bookmarks/import', body.payload, body.headers['content-type']);
    };

    it.each([
      ['an extra field', [['file', BOOKMARKS, 'b.html'], ['extra', '1']], /^Unknown field "extra": send only "file"$/],
      ['a field before the file', [['name', 'update'], ['file', BOOKMARKS, 'b.html']], /^Unknown field "name"/],
      ['a second file', [['file', BOOKMARKS, 'b.html'], ['file', BOOKMARKS, 'c.html']], /^Send one file only/],
      ['a file under another name', [['upload', BOOKMARKS, 'b.html']], /^Unknown file field "upload"/],
    ] as const)('refuses %s with a 400 and imports nothing', async (_, fields, message) => {
      const response = await send(fields as unknown as Parameters<typeof multipart>[0]);
      expect(response.statusCode, response.body).toBe(400);
      expect(ErrorReply.parse(response.json()).message).toMatch(message);
      expect(await bookmarkCount()).toBe(0);
    });

    it('imports the file sent alone', async () => {
      const response = await send([['file', BOOKMARKS, 'b.html']]);
      expect(BookmarkImportReply.parse(response.json()).imported).toBeGreaterThan(0);
    });
  });

  describe.each([
    ['/bookmarks/import', [['file', BOOKMARKS, 'b.html']], bookmarkCount],
    ['/api/books/index', [['name', 'replace'], ['file', CATALOGUE, 'library.json']], bookCount],
  ] as const)('a malformed multipart body to %s', (url, fields, count) => {
    const boundary = 'organiser-boundary';
    const body = rawBody(boundary, fields as unknown as Array<[string, Buffer, string?]>);

    it.each([
      ['no boundary', body, 'multipart/form-data'],
      ['an empty boundary', body, 'multipart/form-data; boundary='],
      ['a boundary other than the body’s', body, 'multipart/form-data; boundary=another'],
      ['no closing boundary', rawBody(boundary, fields as unknown as Array<[string, Buffer, string?]>, false), `multipart/form-data; boundary=${boundary}`],
      ['a body cut inside the file', body.subarray(0, body.length - 200), `multipart/form-data; boundary=${boundary}`],
    ])('answers %s with a 400 and changes nothing', async (_, payload, contentType) => {
      const before = await count();
      const response = await post(url, payload, contentType);
      expect(response.statusCode, response.body).toBe(400);
      expect(ErrorReply.parse(response.json()).message).toMatch(/^(The upload is not well-formed multipart\/form-data: |No (bookmarks|index) file)/);
      expect(await count()).toBe(before);
    });
  });
});
