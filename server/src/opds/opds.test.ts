import fs from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { type AtomFeed, parseAtomFeed } from 'feedsmith';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewAppPassword } from '../../../contract/app-passwords.ts';
import { BookResults, CatalogueBook } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { mimeTypeOf } from '../books/library/book-formats.ts';
import { multipart } from '../test/multipart.ts';
import { bearer, registerUser, type TestApp, testAppOn, testDialects } from '../test/test-app.ts';
import { OPDS_PAGE_SIZE } from './opds.vocabulary.ts';

const LIBRARY_JSON = path.join(import.meta.dirname, '../books/fixtures/calibre/library.json');
const NAVIGATION = 'application/atom+xml;profile=opds-catalog;kind=navigation';
const ACQUISITION = 'application/atom+xml;profile=opds-catalog;kind=acquisition';
const REL = {
  acquisition: 'http://opds-spec.org/acquisition',
  image: 'http://opds-spec.org/image',
  thumbnail: 'http://opds-spec.org/image/thumbnail',
};
/** RFC 3339, as Atom's dates must be (RFC 4287 §3.3). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const MIME_TYPES = ['application/epub+zip', 'application/pdf', 'application/x-mobipocket-ebook', 'application/vnd.amazon.mobi8-ebook', 'application/vnd.ms-htmlhelp'];

type Feed = AtomFeed.Feed<string>;
type Link = NonNullable<Feed['links']>[number];

/**
 * Checks what OPDS 1.2 and Atom (RFC 4287) require of every feed, as a reader relies on it: well-formed
 * XML; id, title, updated and an author on the feed; id, title and updated on each entry; a type on
 * every link of a navigation entry, one acquisition link with a known type on each book.
 */
function checkedFeed(xml: string, kind: 'navigation' | 'acquisition'): Feed {
  expect(XMLValidator.validate(xml)).toBe(true);
  const feed = parseAtomFeed(xml);
  expect(feed.id).toBeTruthy();
  expect(feed.title?.value).toBeTruthy();
  expect(feed.updated).toMatch(RFC3339);
  expect(feed.authors?.[0]?.name).toBeTruthy();
  expect(feed.links?.find((link) => link.rel === 'self')?.type).toBe(kind === 'navigation' ? NAVIGATION : ACQUISITION);
  expect(feed.links?.find((link) => link.rel === 'start')?.type).toBe(NAVIGATION);
  for (const entry of feed.entries ?? []) {
    expect(entry.id).toBeTruthy();
    expect(entry.title?.value).toBeTruthy();
    expect(entry.updated).toMatch(RFC3339);
    if (kind === 'navigation') {
      expect(entry.links).toHaveLength(1);
      expect([NAVIGATION, ACQUISITION]).toContain(entry.links?.[0]?.type);
    } else {
      for (const link of (entry.links ?? []).filter((one) => one.rel === REL.acquisition)) expect(MIME_TYPES).toContain(link.type);
    }
  }
  return feed;
}

const linkOf = (links: Link[] | undefined, rel: string) => links?.find((link) => link.rel === rel);
const entryTitled = (feed: Feed, title: string) => {
  const entry = feed.entries?.find((one) => one.title?.value === title);
  if (!entry) throw new Error(`no entry "${title}" in ${feed.id}: ${feed.entries?.map((one) => one.title?.value).join(', ')}`);
  return entry;
};
const hrefOf = (entry: NonNullable<Feed['entries']>[number]) => entry.links![0]!.href!;

const fixtureBook = (id: string, title: string, updated: string): CatalogueBook =>
  CatalogueBook.parse({
    id,
    title,
    author: 'Paging Author',
    identifier: '',
    publish_date: null,
    publisher: '',
    created: updated,
    updated,
    comment: '<p>About <b>this</b> &amp; that<script>alert(1)</script></p>',
    path: `/books/${id}.epub`,
    formats: [`/books/${id}.epub`, `/books/${id}.azw3`],
    has_cover: true,
  });

describe.each(testDialects)('the OPDS catalogue on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let basic: { authorization: string };

  beforeAll(async () => {
    t = await testAppOn(dialect, { env: { ALLOW_SIGNUP: 'true' } });
    const registered = await registerUser(t.app);
    admin = registered.idToken;
    await load(fs.readFileSync(LIBRARY_JSON), 'replace');
    const made = await t.app.inject({ method: 'POST', url: '/api/users/me/app-passwords', payload: { name: 'KOReader' }, headers: bearer(admin) });
    const { password } = NewAppPassword.parse(made.json());
    basic = { authorization: `Basic ${Buffer.from(`${registered.user.email}:${password}`).toString('base64')}` };
  });
  afterAll(async () => {
    await t?.close();
  });

  async function load(file: Buffer, mode: 'update' | 'replace') {
    const body = multipart([['name', mode], ['file', file, 'index']]);
    const response = await t.app.inject({ method: 'POST', url: '/api/books/index', ...body, headers: { ...body.headers, ...bearer(admin) } });
    expect(response.statusCode, response.body).toBe(200);
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
    expect(root.entries?.map((entry) => entry.title?.value)).toEqual(['Newest', 'Authors A–Z', 'Series', 'Tags', 'Formats']);
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
    await load(Buffer.from(extra.map((one) => `${JSON.stringify(one)}\n`).join('')), 'update');
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
    expect(new Set(seen.map((entry) => entry.id)).size).toBe(total);

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
    await load(Buffer.from(`${JSON.stringify(hostile)}\n`), 'update');
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
