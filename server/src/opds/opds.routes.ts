import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BOOK_FORMATS, BookQuery, BookResults, type CatalogueBook } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import type { BooksService } from '../books/books.service.ts';
import type { Clock } from '../clock.ts';
import { notFound } from '../errors.ts';
import { requestOrigin } from '../http/request-origin.ts';
import { type BrowseFacet, createBrowseIndex, letterOf, type Shelf } from './opds.browse.ts';
import {
  acquisitionFeed,
  type BookUrls,
  type FeedHead,
  type FeedLink,
  latestChange,
  type NavigationEntry,
  navigationFeed,
  OPDS_TYPES,
  openSearchDescription,
  REL,
} from './opds.feed.ts';

type Options = { books: BooksService; authenticator: Authenticator; clock: Clock; publicUrl: string | undefined };

/** Books in one page of an acquisition feed; shelves in one page of a navigation feed. */
export const OPDS_PAGE_SIZE = { books: 25, shelves: 100 } as const;

const Page = z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(100_000).default(1);
const PageQuery = z.strictObject({ page: Page });
const ShelfQuery = z.strictObject({ name: z.string().min(1, 'must not be empty').max(2000), page: Page });
const SearchQuery = z.strictObject({ q: z.string().max(1000, 'must be at most 1000 characters').default(''), page: Page });
const LetterParams = z.strictObject({ letter: z.string().regex(/^([A-Z]|other)$/, 'must be a letter A–Z or other') });
const FormatParams = z.strictObject({ format: z.enum(BOOK_FORMATS, { error: `must be one of ${BOOK_FORMATS.join(', ')}` }) });

const OTHER_LETTER = 'other';
const FACET_TITLES: Record<BrowseFacet, string> = { authors: 'Authors', series: 'Series', tags: 'Tags' };

/**
 * The OPDS 1.2 catalogue for e-readers (KOReader, Moon+ Reader, Thorium, Foliate): Atom feeds of
 * the books service's results, signed in with HTTP Basic (auth/basic-auth.ts) or a bearer token.
 */
export const opdsRoutes: FastifyPluginAsync<Options> = async (app, { books, authenticator, clock, publicUrl }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const browse = createBrowseIndex(books);
  app.addHook('onRequest', authenticator.requireEReader);
  const security: Array<Record<string, string[]>> = [{ basic: [] }, { bearer: [] }];
  const docs = (summary: string) => ({
    tags: ['opds'],
    summary,
    security,
    // The XML is a string: Fastify sends strings as they are, without the serializer.
    response: { 200: z.string().describe('Atom (OPDS 1.2) or OpenSearch XML'), 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 429: ErrorReply },
  });

  const origin = (request: FastifyRequest) => requestOrigin(publicUrl, request);
  const urlsFor = (request: FastifyRequest): BookUrls => ({
    cover: (id, size) => `${origin(request)}/api/books/${encodeURIComponent(id)}/cover?size=${size}`,
    file: (id, format) => `${origin(request)}/api/books/${encodeURIComponent(id)}/file/${format}`,
  });
  const at = (request: FastifyRequest, path: string, query: Record<string, string | number> = {}) => {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)])).toString();
    return `${origin(request)}${path}${search ? `?${search}` : ''}`;
  };

  /** self, start, up and search: every feed has them, so a reader can always go home or search. */
  function commonLinks(request: FastifyRequest, self: string, kind: keyof typeof OPDS_TYPES, up: string | null): FeedLink[] {
    return [
      { rel: 'self', href: self, type: OPDS_TYPES[kind] },
      { rel: 'start', href: at(request, '/opds'), type: OPDS_TYPES.navigation },
      ...(up ? [{ rel: 'up', href: at(request, up), type: OPDS_TYPES.navigation }] : []),
      { rel: 'search', href: at(request, '/opds/opensearch.xml'), type: OPDS_TYPES.openSearch, title: 'Search the books' },
    ];
  }

  /** first, previous, next and last of a paged feed; page numbers start at 1. */
  function pageLinks(pageUrl: (page: number) => string, page: number, total: number, size: number, type: string): FeedLink[] {
    const last = Math.max(1, Math.ceil(total / size));
    return [
      { rel: 'first', href: pageUrl(1), type },
      ...(page > 1 ? [{ rel: 'previous', href: pageUrl(Math.min(page - 1, last)), type }] : []),
      ...(page < last ? [{ rel: 'next', href: pageUrl(page + 1), type }] : []),
      { rel: 'last', href: pageUrl(last), type },
    ];
  }

  const sendNavigation = (reply: FastifyReply, head: FeedHead, entries: NavigationEntry[]) =>
    reply.type(`${OPDS_TYPES.navigation};charset=utf-8`).send(navigationFeed(head, entries));

  /** One page of books as an acquisition feed; `path` and `query` make the page's own address. */
  function sendBooks(
    request: FastifyRequest,
    reply: FastifyReply,
    feed: { id: string; title: string; path: string; query?: Record<string, string>; up: string },
    page: { books: CatalogueBook[]; total: number; number: number },
  ) {
    const pageUrl = (number: number) => at(request, feed.path, { ...feed.query, ...(number > 1 ? { page: number } : {}) });
    const now = new Date(clock.now());
    const head: FeedHead = {
      id: `${feed.id}${page.number > 1 ? `:page:${page.number}` : ''}`,
      title: feed.title,
      updated: latestChange(page.books, now),
      links: [
        ...commonLinks(request, pageUrl(page.number), 'acquisition', feed.up),
        ...pageLinks(pageUrl, page.number, page.total, OPDS_PAGE_SIZE.books, OPDS_TYPES.acquisition),
      ],
    };
    const paging = { total: page.total, from: (page.number - 1) * OPDS_PAGE_SIZE.books, size: OPDS_PAGE_SIZE.books };
    return reply.type(`${OPDS_TYPES.acquisition};charset=utf-8`).send(acquisitionFeed(head, page.books, urlsFor(request), paging));
  }

  /** A page of the books service's search (the same search as `GET /api/books`), comments included for the summaries. */
  async function searchPage(query: Partial<Record<keyof BookQuery, string>>, page: number) {
    const from = (page - 1) * OPDS_PAGE_SIZE.books;
    const question = BookQuery.parse({ ...query, from: String(from), size: String(OPDS_PAGE_SIZE.books), includeComment: 'true' });
    const results = BookResults.parse(JSON.parse((await books.searchReply(question)).toString('utf8')));
    return { books: results.books as CatalogueBook[], total: results.total, number: page };
  }

  const navigationEntry = (request: FastifyRequest, id: string, title: string, content: string, href: string, kind: 'navigation' | 'acquisition', rel = 'subsection'): NavigationEntry => ({
    id: `urn:organiser:opds:${id}`,
    title,
    content,
    updated: new Date(clock.now()),
    link: { rel, href: at(request, href), type: OPDS_TYPES[kind] },
  });

  const navigationHead = (request: FastifyRequest, id: string, title: string, self: string, up: string | null, paging: FeedLink[] = []): FeedHead => ({
    id: `urn:organiser:opds:${id}`,
    title,
    updated: new Date(clock.now()),
    links: [...commonLinks(request, self, 'navigation', up), ...paging],
  });

  const booksCount = (count: number) => (count === 1 ? '1 book' : `${count} books`);

  routes.get('/opds', { schema: docs('The OPDS catalogue\'s root: Newest, Authors A–Z, Series, Tags, Formats') }, async (request, reply) =>
    sendNavigation(reply, navigationHead(request, 'root', 'Organiser books', at(request, '/opds'), null), [
      navigationEntry(request, 'new', 'Newest', 'The books last added or changed, newest first', '/opds/new', 'acquisition', REL.newest),
      navigationEntry(request, 'authors', 'Authors A–Z', 'The books by author, filed by surname', '/opds/authors', 'navigation'),
      navigationEntry(request, 'series', 'Series', 'The books by series, in series order', '/opds/series', 'navigation'),
      navigationEntry(request, 'tags', 'Tags', 'The books by tag', '/opds/tags', 'navigation'),
      navigationEntry(request, 'formats', 'Formats', 'The books by file format', '/opds/formats', 'navigation'),
    ]),
  );

  routes.get('/opds/opensearch.xml', { schema: docs('The OpenSearch description: how a reader searches the catalogue') }, async (request, reply) =>
    reply.type(`${OPDS_TYPES.openSearch};charset=utf-8`).send(openSearchDescription(`${at(request, '/opds/search')}?q={searchTerms}`)),
  );

  routes.get('/opds/new', { schema: { ...docs('Newest books first (an acquisition feed, paged)'), querystring: PageQuery } }, async (request, reply) =>
    sendBooks(request, reply, { id: 'urn:organiser:opds:new', title: 'Newest', path: '/opds/new', up: '/opds' }, await searchPage({}, request.query.page)),
  );

  routes.get('/opds/search', { schema: { ...docs('Books matching the words, in title or author (an acquisition feed, paged)'), querystring: SearchQuery } }, async (request, reply) => {
    const { q, page } = request.query;
    const results = await searchPage({ keys: q, fields: 'title,author' }, page);
    return sendBooks(request, reply, { id: `urn:organiser:opds:search:${encodeURIComponent(q)}`, title: `Search: ${q}`, path: '/opds/search', query: { q }, up: '/opds' }, results);
  });

  routes.get('/opds/formats', { schema: docs('The formats (a navigation feed)') }, async (request, reply) =>
    sendNavigation(
      reply,
      navigationHead(request, 'formats', 'Formats', at(request, '/opds/formats'), '/opds'),
      BOOK_FORMATS.map((format) => navigationEntry(request, `format:${format}`, format.toUpperCase(), `Books with a ${format.toUpperCase()} file`, `/opds/formats/${format}`, 'acquisition')),
    ),
  );

  routes.get('/opds/formats/:format', { schema: { ...docs('Books with a file of one format (an acquisition feed, paged)'), params: FormatParams, querystring: PageQuery } }, async (request, reply) => {
    const { format } = request.params;
    const results = await searchPage({ format }, request.query.page);
    return sendBooks(request, reply, { id: `urn:organiser:opds:format:${format}`, title: format.toUpperCase(), path: `/opds/formats/${format}`, up: '/opds/formats' }, results);
  });

  routes.get('/opds/authors', { schema: docs('The letters authors are filed under (a navigation feed)') }, async (request, reply) => {
    const counts = new Map<string, number>();
    for (const shelf of (await browse.current()).authors) counts.set(letterOf(shelf.name), (counts.get(letterOf(shelf.name)) ?? 0) + 1);
    const letters = [...counts].sort(([a], [b]) => (a === '#' ? 1 : b === '#' ? -1 : a.localeCompare(b)));
    return sendNavigation(
      reply,
      navigationHead(request, 'authors', 'Authors A–Z', at(request, '/opds/authors'), '/opds'),
      letters.map(([letter, count]) => {
        const path = `/opds/authors/${letter === '#' ? OTHER_LETTER : letter}`;
        return navigationEntry(request, `authors:${letter}`, letter, count === 1 ? '1 author' : `${count} authors`, path, 'navigation');
      }),
    );
  });

  /** A page of shelves (authors under a letter, series, tags), each a link to its books. */
  function sendShelves(request: FastifyRequest, reply: FastifyReply, facet: BrowseFacet, shelves: Shelf[], feed: { id: string; title: string; path: string; up: string; page: number }) {
    const { shelves: size } = OPDS_PAGE_SIZE;
    const pageUrl = (number: number) => at(request, feed.path, number > 1 ? { page: number } : {});
    const paging = pageLinks(pageUrl, feed.page, shelves.length, size, OPDS_TYPES.navigation);
    const shown = shelves.slice((feed.page - 1) * size, feed.page * size);
    return sendNavigation(
      reply,
      navigationHead(request, `${feed.id}${feed.page > 1 ? `:page:${feed.page}` : ''}`, feed.title, pageUrl(feed.page), feed.up, paging),
      shown.map((shelf) =>
        navigationEntry(request, `${facet}:${encodeURIComponent(shelf.name)}`, shelf.name, booksCount(shelf.bookIds.length), `/opds/${facet}/books?${new URLSearchParams({ name: shelf.name })}`, 'acquisition'),
      ),
    );
  }

  routes.get('/opds/authors/:letter', { schema: { ...docs('The authors filed under a letter (a navigation feed, paged)'), params: LetterParams, querystring: PageQuery } }, async (request, reply) => {
    const { letter } = request.params;
    const filed = letter === OTHER_LETTER ? '#' : letter;
    const authors = (await browse.current()).authors.filter((shelf) => letterOf(shelf.name) === filed);
    if (authors.length === 0) throw notFound('Letter');
    return sendShelves(request, reply, 'authors', authors, { id: `authors:${filed}`, title: `Authors: ${filed}`, path: `/opds/authors/${letter}`, up: '/opds/authors', page: request.query.page });
  });

  for (const facet of ['series', 'tags'] as const) {
    routes.get(`/opds/${facet}`, { schema: { ...docs(`The ${facet} (a navigation feed, paged)`), querystring: PageQuery } }, async (request, reply) =>
      sendShelves(request, reply, facet, (await browse.current())[facet], { id: facet, title: FACET_TITLES[facet], path: `/opds/${facet}`, up: '/opds', page: request.query.page }),
    );
  }

  for (const facet of ['authors', 'series', 'tags'] as const) {
    routes.get(`/opds/${facet}/books`, { schema: { ...docs(`The books of one of the ${facet} (an acquisition feed, paged)`), querystring: ShelfQuery } }, async (request, reply) => {
      const { name, page } = request.query;
      const shelf = (await browse.current())[facet].find((one) => one.name === name);
      if (!shelf) throw notFound(FACET_TITLES[facet].replace(/s$/, ''));
      const ids = shelf.bookIds.slice((page - 1) * OPDS_PAGE_SIZE.books, page * OPDS_PAGE_SIZE.books);
      const up = facet === 'authors' ? `/opds/authors/${letterOf(name) === '#' ? OTHER_LETTER : letterOf(name)}` : `/opds/${facet}`;
      return sendBooks(
        request,
        reply,
        { id: `urn:organiser:opds:${facet}:${encodeURIComponent(name)}`, title: name, path: `/opds/${facet}/books`, query: { name }, up },
        { books: await books.getMany(ids), total: shelf.bookIds.length, number: page },
      );
    });
  }
};
