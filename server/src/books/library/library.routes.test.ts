import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewAppPassword } from '../../../../contract/app-passwords.ts';
import { Book, BookResults } from '../../../../contract/books.ts';
import { HealthReply } from '../../../../contract/health.ts';
import { multipart } from '../../test/multipart.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../../test/test-app.ts';

const FIXTURE_LIBRARY = path.join(import.meta.dirname, '../fixtures/library');
const BOOKS_API_KEY = 'a books key of some length';
const DISCWORLD = 'Terry Pratchett/The Science of Discworld (1)';
const MISERABLES = 'Victor Hugo/Les Miserables (3)';

describe.each(testDialects)('covers and files from the library folder on %s', (dialect) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-files-'));
  const library = path.join(work, 'Calibre Library');
  const dataDir = path.join(work, 'data');
  const outside = path.join(work, 'outside');
  const coverCache = path.join(dataDir, 'covers');
  let t: TestApp;
  let reader: string;
  let readerEmail: string;
  let origin: string;

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...bearer(reader), ...headers } });
  const libraryFile = (relative: string) => fs.readFileSync(path.join(library, relative));
  const thumbnails = () => (fs.existsSync(coverCache) ? fs.readdirSync(coverCache) : []);

  beforeAll(async () => {
    fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.mobi'), 'not a book of this library');
    fs.copyFileSync(path.join(library, MISERABLES, 'cover.jpg'), path.join(outside, 'cover.jpg'));
    // Links inside the library to files outside it: the Globe's MOBI and Little Nemo's cover.
    const globeMobi = path.join(library, 'Terry Pratchett/The Globe (2)/The Globe - Terry Pratchett.mobi');
    fs.rmSync(globeMobi);
    fs.symlinkSync(path.join(outside, 'secret.mobi'), globeMobi);
    const nemoCover = path.join(library, 'Winsor McCay/Little Nemo in Slumberland (4)/cover.jpg');
    fs.rmSync(nemoCover);
    fs.symlinkSync(path.join(outside, 'cover.jpg'), nemoCover);

    t = await testAppOn(dialect, { env: { CALIBRE_LIBRARY: library, DATA_DIR: dataDir, BOOKS_API_KEY } });
    await t.app.ready();
    // The first load's transaction holds SQLite's one writer: a sign-up waits for its end.
    for (const until = Date.now() + 30_000; ; ) {
      const health = HealthReply.parse((await t.app.inject({ url: '/api/health' })).json());
      if (health.library?.last_load?.status === 'ok') break;
      if (Date.now() > until) throw new Error(`the library never loaded: ${JSON.stringify(health.library)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const registered = await registerUser(t.app);
    reader = registered.idToken;
    readerEmail = registered.user.email;
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('says on search replies that it serves files, and lists on the book’s reply the formats and cover on disk', async () => {
    expect(BookResults.parse((await get('/api/books')).json()).files_served).toBe(true);
    const discworld = Book.parse((await get('/api/books/1')).json());
    expect(discworld.cover_url).toBe('/api/books/1/cover?size=full');
    expect(Book.parse((await get('/api/books/5')).json()).cover_url).toBeNull();
    expect(discworld.files).toEqual([
      { format: 'epub', size: libraryFile(`${DISCWORLD}/The Science of Discworld - Terry Pratchett.epub`).length, url: '/api/books/1/file/epub' },
      { format: 'pdf', size: libraryFile(`${DISCWORLD}/The Science of Discworld - Terry Pratchett.pdf`).length, url: '/api/books/1/file/pdf' },
    ]);
    // The MOBI is a link out of the library: as absent as a missing file.
    expect(Book.parse((await get('/api/books/2')).json()).files?.map((file) => file.format)).toEqual(['azw3']);
    expect(Book.parse((await get('/api/books/5')).json()).files).toEqual([]);
  });

  it('serves the cover of a book whose files were removed, from the folder Calibre keeps it in', async () => {
    const traumnovelle = Book.parse((await get('/api/books/6')).json());
    expect(traumnovelle).toMatchObject({ files: [], cover_url: '/api/books/6/cover?size=full' });
    const full = await get('/api/books/6/cover');
    expect(full.statusCode, full.body).toBe(200);
    expect(full.rawPayload.equals(libraryFile('Arthur Schnitzler/Traumnovelle (6)/cover.jpg'))).toBe(true);
  });

  it('serves an e-reader signed in with an app password the file and cover its OPDS entry links to, and asks others for Basic', async () => {
    const made = await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', payload: { name: 'KOReader' }, headers: bearer(reader) });
    const { password } = NewAppPassword.parse(made.json());
    const basic = (secret: string) => ({ authorization: `Basic ${Buffer.from(`${readerEmail}:${secret}`).toString('base64')}` });

    const feed = await t.app.inject({ url: '/opds/search', query: { q: 'miserables' }, headers: basic(password) });
    expect(feed.statusCode, feed.body).toBe(200);
    const href = /href="([^"]*\/api\/books\/3\/file\/epub)"/.exec(feed.body)?.[1];
    expect(href, feed.body).toBeTruthy();
    const file = await t.app.inject({ url: new URL(href!, 'http://localhost').pathname, headers: basic(password) });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.rawPayload.equals(libraryFile(`${MISERABLES}/Les Miserables - Victor Hugo.epub`))).toBe(true);
    expect((await t.app.inject({ url: '/api/books/3/cover?size=thumb', headers: basic(password) })).statusCode).toBe(200);

    const anonymous = await t.app.inject({ url: '/api/books/3/file/epub' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic /);
    expect((await t.app.inject({ url: '/api/books/3/file/epub', headers: basic('not-the-password') })).statusCode).toBe(401);
  });

  it('downloads a format: its bytes, type, a Unicode file name with an ASCII one beside it, and a 304 for its ETag or date', async () => {
    const response = await get('/api/books/3/file/epub');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.rawPayload.equals(libraryFile(`${MISERABLES}/Les Miserables - Victor Hugo.epub`))).toBe(true);
    expect(response.headers['content-type']).toBe('application/epub+zip');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Les Miserables - Victor Hugo.epub"; filename*=UTF-8''Les%20Mis%C3%A9rables%20-%20Victor%20Hugo.epub`,
    );
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['last-modified']).toBeTruthy();
    const etag = String(response.headers.etag);
    expect(etag).toBeTruthy();

    const again = await get('/api/books/3/file/epub', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect((await get('/api/books/3/file/epub', { 'if-modified-since': String(response.headers['last-modified']) })).statusCode).toBe(304);

    const head = await t.app.inject({ method: 'HEAD', url: '/api/books/3/file/epub', headers: bearer(reader) });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(response.rawPayload.length));
    expect(head.rawPayload.length).toBe(0);

    const pdf = await get('/api/books/1/file/pdf');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect((await get('/api/books/2/file/azw3')).headers['content-type']).toBe('application/vnd.amazon.mobi8-ebook');
    expect((await get('/api/books/4/file/cbz')).headers['content-type']).toBe('application/vnd.comicbook+zip');
  });

  it('answers a Range with 206 and those bytes, and a range outside the file with 416', async () => {
    const pdf = libraryFile(`${DISCWORLD}/The Science of Discworld - Terry Pratchett.pdf`);
    const part = await get('/api/books/1/file/pdf', { range: 'bytes=1000-1999' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${pdf.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.rawPayload.equals(pdf.subarray(1000, 2000))).toBe(true);

    // Resuming: from a byte to the end.
    const rest = await get('/api/books/1/file/pdf', { range: `bytes=${pdf.length - 100}-` });
    expect(rest.statusCode).toBe(206);
    expect(rest.rawPayload.equals(pdf.subarray(pdf.length - 100))).toBe(true);

    const beyond = await get('/api/books/1/file/pdf', { range: `bytes=${pdf.length + 10}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${pdf.length}`);
    expect(beyond.json()).toEqual({ statusCode: 416, error: 'Range Not Satisfiable', message: 'The requested range lies outside the file' });
  });

  it('serves the cover as Calibre keeps it, and a small thumbnail made once', async () => {
    const full = await get('/api/books/3/cover?size=full');
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('image/jpeg');
    expect(full.rawPayload.equals(libraryFile(`${MISERABLES}/cover.jpg`))).toBe(true);
    expect((await get('/api/books/3/cover')).rawPayload.equals(full.rawPayload)).toBe(true);

    const thumb = await get('/api/books/3/cover?size=thumb');
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    const image = await sharp(thumb.rawPayload).metadata();
    // 1200×1600 fitted inside 160×240.
    expect(image).toMatchObject({ format: 'jpeg', width: 160, height: 213 });
    expect(thumb.rawPayload.length).toBeLessThan(full.rawPayload.length / 5);

    const [cached] = thumbnails();
    const madeAt = fs.statSync(path.join(coverCache, cached!)).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await get('/api/books/3/cover?size=thumb');
    expect(second.rawPayload.equals(thumb.rawPayload)).toBe(true);
    expect(thumbnails()).toEqual([cached]);
    expect(fs.statSync(path.join(coverCache, cached!)).mtimeMs).toBe(madeAt);
    expect((await get('/api/books/3/cover?size=thumb', { 'if-none-match': String(thumb.headers.etag) })).statusCode).toBe(304);
  });

  it('resizes once for requests that come together, and again when the cover changes', async () => {
    const before = new Set(thumbnails());
    const together = await Promise.all(Array.from({ length: 6 }, () => get('/api/books/1/cover?size=thumb')));
    expect(together.map((response) => response.statusCode)).toEqual(Array(6).fill(200));
    expect(new Set(together.map((response) => response.rawPayload.toString('base64'))).size).toBe(1);
    const made = thumbnails().filter((name) => !before.has(name));
    expect(made).toHaveLength(1);
    expect(thumbnails().some((name) => name.endsWith('.partial'))).toBe(false);

    // Calibre writes a new cover: a new thumbnail, of the new picture, in place of the old one.
    const wide = { width: 800, height: 400, channels: 3, background: '#336699' } as const;
    await sharp({ create: wide }).jpeg().toFile(path.join(library, DISCWORLD, 'cover.jpg'));
    const changed = await get('/api/books/1/cover?size=thumb');
    expect(await sharp(changed.rawPayload).metadata()).toMatchObject({ width: 160, height: 80 });
    const now = thumbnails().filter((name) => !before.has(name));
    expect(now).toHaveLength(1);
    expect(now).not.toEqual(made);
  });

  it('answers 404 for a format or a cover that is not on disk, and for a book that is not there', async () => {
    for (const url of ['/api/books/3/file/pdf', '/api/books/5/file/epub', '/api/books/5/cover', '/api/books/99/file/epub', '/api/books/99/cover']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    fs.rmSync(path.join(library, MISERABLES, 'Les Miserables - Victor Hugo.epub'));
    try {
      expect((await get('/api/books/3/file/epub')).statusCode).toBe(404);
      expect(Book.parse((await get('/api/books/3')).json()).files).toEqual([]);
    } finally {
      fs.copyFileSync(path.join(FIXTURE_LIBRARY, MISERABLES, 'Les Miserables - Victor Hugo.epub'), path.join(library, MISERABLES, 'Les Miserables - Victor Hugo.epub'));
    }
  });

  /** Sent as written: light-my-request, fetch and browsers resolve `..` segments before sending, a hostile client need not. */
  const getRaw = async (requestPath: string) => {
    const { port } = new URL(origin);
    return new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path: requestPath, headers: bearer(reader) }, (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
    });
  };

  it('answers 404 to every way out of the library folder', async () => {
    const attempts = [
      '/api/books/1/file/..',
      '/api/books/1/file/%2e%2e',
      '/api/books/1/file/..%2f..%2fmetadata.db',
      '/api/books/1/file/%2e%2e%2f%2e%2e%2fmetadata.db',
      '/api/books/1/file/epub%2f..%2f..%2f..%2fmetadata.db',
      '/api/books/%2e%2e/file/epub',
      '/api/books/..%2f..%2f..%2fmetadata.db/file/db',
      '/api/books/1/../../metadata.db',
      // Links inside the library to files outside it.
      '/api/books/2/file/mobi',
      '/api/books/4/cover',
      '/api/books/4/cover?size=thumb',
    ];
    for (const url of attempts) {
      const response = await getRaw(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('not a book of this library');
    }
  });

  it('is read by signed-in users and with the books key, like the catalogue, and by no one else', async () => {
    const anonymous = await t.app.inject({ url: '/api/books/1/file/epub' });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/books/1/cover?size=thumb' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/books/1/file/epub', headers: { 'x-api-key': 'a wrong key of some length' } })).statusCode).toBe(401);
    const withKey = await t.app.inject({ url: '/api/books/1/file/epub', headers: { 'x-api-key': BOOKS_API_KEY } });
    expect(withKey.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/books/1/cover', headers: { 'x-api-key': BOOKS_API_KEY } })).statusCode).toBe(200);
  });

  it('refuses a cover size it does not know', async () => {
    const response = await get('/api/books/1/cover?size=huge');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: 400, message: expect.stringContaining('thumb or full') });
  });
});

describe.each(testDialects)('covers and files without a library folder on %s', (dialect) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await testAppOn(dialect);
    admin = (await registerUser(t.app)).idToken;
    // The library's own catalogue, uploaded: its books name files that this server has no folder for.
    const body = multipart([['name', 'replace'], ['file', fs.readFileSync(path.join(FIXTURE_LIBRARY, 'metadata.db')), 'metadata.db']]);
    const upload = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(admin) } });
    expect(upload.statusCode, upload.body).toBe(200);
    return t.close;
  });

  it('lists no files and answers 404 for every file and cover', async () => {
    const book = Book.parse((await t.app.inject({ url: '/api/books/1', headers: bearer(admin) })).json());
    expect(book).toMatchObject({ has_cover: true, files: [], cover_url: null });
    expect(BookResults.parse((await t.app.inject({ url: '/api/books', headers: bearer(admin) })).json()).files_served).toBe(false);
    for (const url of ['/api/books/1/file/epub', '/api/books/1/file/pdf', '/api/books/1/cover', '/api/books/1/cover?size=thumb']) {
      expect((await t.app.inject({ url, headers: bearer(admin) })).statusCode, url).toBe(404);
    }
  });
});
