import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseAtomFeed } from 'feedsmith';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewAppPassword } from '../../../contract/app-passwords.ts';
import { BookResults, CatalogueBook } from '../../../contract/books.ts';
import { HealthReply } from '../../../contract/health.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { mimeTypeOf } from '../books/library/book-formats.ts';
import { multipart } from '../test/multipart.ts';
import { crawlOpds } from '../test/opds-crawl.ts';
import { ACQUISITION, checkedFeed, entryTitled, type Feed, hrefOf, linkOf, NAVIGATION, REL } from '../test/opds-feeds.ts';
import { catalogueBook } from '../test/catalogue-book.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { OPDS_PAGE_SIZE } from './opds.vocabulary.ts';

const BOOKS_KEY = 'a-shared-key-for-readers';
const LIBRARY_JSON = path.join(import.meta.dirname, '../books/fixtures/calibre/library.json');
/** The library the exports of calibre/ were made from (ids 1–15), without its files. */
const EXPORTED_LIBRARY_DB = path.join(import.meta.dirname, '../books/fixtures/calibre/metadata.db');
/** A Calibre library folder with its files and covers (ids 1–6). */
const FIXTURE_LIBRARY = path.join(import.meta.dirname, '../books/fixtures/library');
const A_COVER = path.join(FIXTURE_LIBRARY, 'Victor Hugo/Les Miserables (3)/cover.jpg');

const fixtureBook = (id: string, title: string, updated: string): CatalogueBook =>
  catalogueBook({
    id,
    title,
    author: 'Paging Author',
    created: updated,
    updated,
    comment: '<p>About <b>this</b> &amp; that<script>alert(1)</script></p>',
    path: `Paging Author/Book (${id})/${id}.epub`,
    formats: [`Paging Author/Book (${id})/${id}.epub`, `Paging Author/Book (${id})/${id}.azw3`],
    has_cover: true,
  });

/** Puts a book's files and cover where its catalogue paths say, below the library folder (their bytes do not matter here, the cover's do). */
function putOnDisk(library: string, files: string[], coverFolder: string | null) {
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(library, file)), { recursive: true });
    fs.writeFileSync(path.join(library, file), `the file ${file}`);
  }
  if (coverFolder !== null) fs.copyFileSync(A_COVER, path.join(library, coverFolder, 'cover.jpg'));
}

/** The exported library's `metadata.db` in a folder with a file for each of its formats and a cover where Calibre has one. */
function exportedLibraryIn(library: string) {
  fs.mkdirSync(library, { recursive: true });
  fs.copyFileSync(EXPORTED_LIBRARY_DB, path.join(library, 'metadata.db'));
  const db = new DatabaseSync(EXPORTED_LIBRARY_DB, { readOnly: true });
  try {
    const books = db.prepare('select id, path, has_cover from books').all() as Array<{ id: number; path: string; has_cover: number }>;
    const files = db.prepare('select name, format from data where book = ?');
    for (const book of books) {
      const named = (files.all(book.id) as Array<{ name: string; format: string }>).map((file) => `${book.path}/${file.name}.${file.format.toLowerCase()}`);
      fs.mkdirSync(path.join(library, book.path), { recursive: true });
      putOnDisk(library, named, book.has_cover ? book.path : null);
    }
  } finally {
    db.close();
  }
}

/** Waits for the library watcher's first load. */
async function libraryLoaded(t: TestApp) {
  for (const until = Date.now() + 30_000; ; ) {
    const health = HealthReply.parse((await t.app.inject({ url: '/api/health' })).json());
    if (health.library?.last_load?.status === 'ok') return;
    if (Date.now() > until) throw new Error(`the library never loaded: ${JSON.stringify(health.library)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function uploadIndex(t: TestApp, idToken: string, file: Buffer, mode: 'update' | 'replace') {
  const body = multipart([['name', mode], ['file', file, 'index']]);
  const response = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(idToken) } });
  expect(response.statusCode, response.body).toBe(200);
}

/** An app password for an e-reader, as HTTP Basic. */
async function eReaderBasic(t: TestApp, idToken: string, email: string) {
  const made = await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', payload: { name: 'KOReader' }, headers: bearer(idToken) });
  const { password } = NewAppPassword.parse(made.json());
  return { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` };
}

describe.each(testDialects)('the OPDS catalogue on %s', (dialect) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-opds-'));
  const library = path.join(work, 'Calibre Library');
  let t: TestApp;
  let admin: string;
  let basic: { authorization: string };

  beforeAll(async () => {
    exportedLibraryIn(library);
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', BOOKS_API_KEY: BOOKS_KEY, CALIBRE_LIBRARY: library, DATA_DIR: path.join(work, 'data') } });
    await t.app.ready();
    // The first load's transaction holds SQLite's one writer: a sign-up waits for its end.
    await libraryLoaded(t);
    const registered = await registerUser(t.app);
    admin = registered.idToken;
    basic = await eReaderBasic(t, admin, registered.user.email);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** Loads books into the catalogue, their files and covers put on disk first. */
  async function load(books: CatalogueBook[]) {
    for (const book of books) putOnDisk(library, book.formats, book.has_cover ? path.dirname(book.path) : null);
    await uploadIndex(t, admin, Buffer.from(books.map((book) => `${JSON.stringify(book)}\n`).join('')), 'update');
  }

  /** Fetches a feed's address as a reader does (absolute, with Basic), checking its Content-Type. */
  async function read(href: string, kind: 'navigation' | 'acquisition'): Promise<Feed> {
    const url = new URL(href, 'http://localhost');
    const response = await t.app.inject({ url: `${url.pathname}${url.search}`, headers: basic });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(`${kind === 'navigation' ? NAVIGATION : ACQUISITION};charset=utf-8`);
    return checkedFeed(response.body, kind);
  }

  it('walks from the root through Authors A–Z to an author’s books, each with its files, cover and summary', async () => {
    const root = await read('/opds', 'navigation');
    expect(root.entries?.map((entry) => entry.title?.value)).toEqual(['Newest', 'Authors A–Z', 'Series', 'Tags', 'Formats', 'Shelves', 'Articles']);
    expect(linkOf(root.links, 'search')?.type).toBe('application/opensearchdescription+xml');

    const letters = await read(hrefOf(entryTitled(root, 'Authors A–Z')), 'navigation');
    const authors = await read(hrefOf(entryTitled(letters, 'H')), 'navigation');
    const hugo = entryTitled(authors, 'Victor Hugo');
    expect(hugo.links?.[0]?.type).toBe(ACQUISITION);
    const books = await read(hrefOf(hugo), 'acquisition');
    const miserables = entryTitled(books, 'Les Misérables');
    expect(miserables.authors?.map((author) => author.name)).toEqual(['Victor Hugo']);
    expect(miserables.dcterms?.languages).toEqual(['fra']);
    expect(miserables.dcterms?.identifiers).toContain('urn:isbn:9782070409228');
    expect(miserables.categories?.map((category) => category.term)).toEqual(['Roman', 'Classique']);
    expect(miserables.summary?.value).toBeTruthy();
    expect(miserables.summary?.value).not.toMatch(/<|&lt;|&amp;/);

    const book = BookResults.parse((await t.app.inject({ url: '/api/books', query: { keys: 'miserables' }, headers: bearer(admin) })).json()).books[0]!;
    const acquisitions = miserables.links!.filter((link) => link.rel === REL.acquisition);
    expect(acquisitions.length).toBeGreaterThan(0);
    for (const link of acquisitions) {
      const format = /\/api\/books\/1\/file\/([a-z0-9]+)$/.exec(new URL(link.href!).pathname)?.[1];
      expect(format, link.href).toBeTruthy();
      expect(book.formats.some((file) => file.toLowerCase().endsWith(`.${format}`))).toBe(true);
      expect(link.type).toBe(mimeTypeOf(format!));
    }
    expect(linkOf(miserables.links, REL.image)?.href).toMatch(/\/api\/books\/1\/cover\?size=full$/);
    expect(linkOf(miserables.links, REL.thumbnail)?.href).toMatch(/\/api\/books\/1\/cover\?size=thumb$/);
  });

  it('follows the OpenSearch description’s template to the same books as /api/books finds', async () => {
    const root = await read('/opds', 'navigation');
    const response = await t.app.inject({ url: new URL(linkOf(root.links, 'search')!.href!).pathname, headers: basic });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/opensearchdescription+xml;charset=utf-8');
    expect(XMLValidator.validate(response.body)).toBe(true);
    const description = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(response.body) as {
      OpenSearchDescription: { ShortName: string; Url: { type: string; template: string } };
    };
    const { Url } = description.OpenSearchDescription;
    expect(Url.type).toBe(ACQUISITION);
    expect(Url.template).toContain('{searchTerms}');

    const found = await read(Url.template.replace('{searchTerms}', encodeURIComponent('victor hugo')), 'acquisition');
    const api = BookResults.parse(
      (await t.app.inject({ url: '/api/books', query: { keys: 'victor hugo', fields: 'title,author', size: '25' }, headers: bearer(admin) })).json(),
    );
    expect(api.total).toBeGreaterThan(0);
    expect(found.entries?.map((entry) => entry.title?.value)).toEqual(api.books.map((one) => one.title));
  });

  it('lists series in series order, tags and formats, each leading to its books', async () => {
    const root = await read('/opds', 'navigation');
    const series = await read(hrefOf(entryTitled(root, 'Series')), 'navigation');
    const discworld = await read(hrefOf(entryTitled(series, 'The Science of Discworld')), 'acquisition');
    expect(discworld.entries?.length).toBeGreaterThan(0);

    const tags = await read(hrefOf(entryTitled(root, 'Tags')), 'navigation');
    const roman = await read(hrefOf(entryTitled(tags, 'Roman')), 'acquisition');
    for (const entry of roman.entries ?? []) expect(entry.categories?.map((category) => category.term)).toContain('Roman');

    const formats = await read(hrefOf(entryTitled(root, 'Formats')), 'navigation');
    const pdfs = await read(hrefOf(entryTitled(formats, 'PDF')), 'acquisition');
    expect(pdfs.entries?.length).toBeGreaterThan(0);
    for (const entry of pdfs.entries ?? []) {
      expect(entry.links?.some((link) => link.rel === REL.acquisition && link.type === 'application/pdf')).toBe(true);
    }
  });

  it('pages acquisition feeds with next, previous and first, every book once', async () => {
    const extra = Array.from({ length: 40 }, (_, i) => fixtureBook(`p${i}`, `Paged book ${i}`, new Date(Date.UTC(2030, 0, 1, 0, i)).toISOString()));
    await load(extra);
    const newest = await read('/opds/new', 'acquisition');
    expect(linkOf(newest.links, 'previous')).toBeUndefined();
    expect(newest.entries).toHaveLength(OPDS_PAGE_SIZE.books);
    expect(newest.entries?.[0]?.title?.value).toBe('Paged book 39');
    const total = Number(newest.opensearch?.totalResults);
    expect(total).toBe(55);

    const seen = [...(newest.entries ?? [])];
    let page = newest;
    while (linkOf(page.links, 'next')) {
      const next = await read(linkOf(page.links, 'next')!.href!, 'acquisition');
      const back = await read(linkOf(next.links, 'previous')!.href!, 'acquisition');
      expect(back.entries?.map((entry) => entry.id)).toEqual(page.entries?.map((entry) => entry.id));
      expect(linkOf(next.links, 'first')?.href).toBe(linkOf(newest.links, 'self')?.href);
      seen.push(...(next.entries ?? []));
      page = next;
    }
    // Fräulein Else has no file: counted by the search, left out of its page.
    expect(new Set(seen.map((entry) => entry.id)).size).toBe(total - 1);

    const author = await read('/opds/authors/books?name=Paging%20Author', 'acquisition');
    expect(author.entries).toHaveLength(OPDS_PAGE_SIZE.books);
    const second = await read(linkOf(author.links, 'next')!.href!, 'acquisition');
    expect(second.entries).toHaveLength(40 - OPDS_PAGE_SIZE.books);
    expect(linkOf(second.links, 'next')).toBeUndefined();
    const paged = entryTitled(second, 'Paged book 0');
    expect(paged.summary?.value).toBe('About this & that');
    expect(paged.links?.filter((link) => link.rel === REL.acquisition).map((link) => link.type)).toEqual([
      'application/epub+zip',
      'application/vnd.amazon.mobi8-ebook',
    ]);
  });

  it('stays well-formed XML whatever a title holds: markup, ampersands, control characters', async () => {
    const hostile = { ...fixtureBook('hostile', 'A <b>bold</b> & "quoted" ]]> title\u0001\u000b\u001f', new Date(Date.UTC(2031, 0, 1)).toISOString()), author: 'Eve <script> & Mallory&Co' };
    await load([hostile]);
    const response = await t.app.inject({ url: '/opds/new', headers: basic });
    expect(response.statusCode).toBe(200);
    const feed = checkedFeed(response.body, 'acquisition');
    const entry = feed.entries![0]!;
    expect(entry.title?.value).toBe('A <b>bold</b> & "quoted" ]]> title');
    expect(entry.authors?.map((author) => author.name)).toEqual(['Eve <script>', 'Mallory&Co']);
    // Filed by surname, "<script>, Eve" is under no letter A–Z.
    const letters = await read('/opds/authors', 'navigation');
    const other = await read(hrefOf(entryTitled(letters, '#')), 'navigation');
    expect(other.entries?.map((one) => one.title?.value)).toContain('Eve <script>');
  });

  it('opens every feed to the shared books key, as the API description says of each', async () => {
    const spec = (await t.app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, { get: { security: unknown[] } }> };
    const feeds = Object.keys(spec.paths).filter((url) => url === '/opds' || url.startsWith('/opds/'));
    expect(feeds.length).toBeGreaterThan(5);
    for (const url of feeds) expect(spec.paths[url]!.get.security, url).toEqual(expect.arrayContaining([{ apiKey: [] }]));
    for (const url of ['/opds', '/opds/new', '/opds/authors', '/opds/series', '/opds/tags', '/opds/formats', '/opds/shelves', '/opds/search?q=the']) {
      expect((await t.app.inject({ url, headers: { 'x-api-key': BOOKS_KEY } })).statusCode, url).toBe(200);
    }
    expect((await t.app.inject({ url: '/opds', headers: { 'x-api-key': 'not the key' } })).statusCode).toBe(401);
  });

  it('answers bad addresses with a clear 4xx and asks for Basic credentials without any', async () => {
    for (const [url, status] of [
      ['/opds/new?page=0', 400],
      ['/opds/new?page=x', 400],
      ['/opds/new?unknown=1', 400],
      ['/opds/authors/books?name=Nobody%20At%20All', 404],
      ['/opds/series/books?name=No%20such%20series', 404],
      ['/opds/authors/1', 400],
      ['/opds/formats/docx', 400],
      ['/opds/search?q=' + 'x'.repeat(1001), 400],
    ] as const) {
      const response = await t.app.inject({ url, headers: basic });
      expect(response.statusCode, url).toBe(status);
      expect(ErrorReply.parse(response.json()).statusCode).toBe(status);
    }
    const series = await t.app.inject({ url: '/opds/series/books?name=No%20such%20series', headers: basic });
    expect(ErrorReply.parse(series.json()).message).toBe('Series not found');
    const anonymous = await t.app.inject({ url: '/opds' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic realm="Organiser"/);
  });
});

/** What a crawl of every feed found wrong: links that do not answer 200, and books offered with nothing to download. */
function brokenIn(crawl: Awaited<ReturnType<typeof crawlOpds>>) {
  return {
    links: crawl.links.filter((link) => link.status !== 200),
    entriesWithoutAcquisition: crawl.entries.filter((entry) => entry.acquisitions === 0),
  };
}

describe.each(testDialects)('every link of every OPDS feed on %s', (dialect) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'organiser-opds-links-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('answers on an uploaded catalogue, which has no file to serve: no book is offered', async () => {
    const t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    try {
      const { idToken, user } = await registerUser(t.app);
      await uploadIndex(t, idToken, fs.readFileSync(LIBRARY_JSON), 'replace');
      const reply = BookResults.parse((await t.app.inject({ url: '/api/books', headers: bearer(idToken) })).json());
      expect(reply).toMatchObject({ total: 15, files_served: false });

      const crawl = await crawlOpds(t.app, await eReaderBasic(t, idToken, user.email));
      expect(brokenIn(crawl)).toEqual({ links: [], entriesWithoutAcquisition: [] });
      expect(crawl.feeds).toContain('/opds/new');
      expect(crawl.entries).toEqual([]);
      const newest = await t.app.inject({ url: '/opds/new', headers: await eReaderBasic(t, idToken, user.email) });
      expect(parseAtomFeed(newest.body).opensearch?.totalResults).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('answers on a library folder, where one book has a cover and no file and another neither', async () => {
    const library = path.join(work, `${dialect} library`);
    fs.cpSync(FIXTURE_LIBRARY, library, { recursive: true });
    const t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true', CALIBRE_LIBRARY: library, DATA_DIR: path.join(work, `${dialect} data`) } });
    try {
      await t.app.ready();
      const { idToken, user } = await registerUser(t.app);
      await libraryLoaded(t);
      const crawl = await crawlOpds(t.app, await eReaderBasic(t, idToken, user.email));
      expect(brokenIn(crawl)).toEqual({ links: [], entriesWithoutAcquisition: [] });
      const titles = new Set(crawl.entries.map((entry) => entry.title));
      expect([...titles].sort()).toEqual(['Les Misérables', 'Little Nemo in Slumberland', 'The Globe', 'The Science of Discworld']);
      const rels = new Set(crawl.links.map((link) => link.rel));
      expect(rels).toEqual(new Set(['http://opds-spec.org/acquisition', REL.image, REL.thumbnail]));
    } finally {
      await t.close();
    }
  });
});
