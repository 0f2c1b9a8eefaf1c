import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BOOK_FORMATS, BookQuery, BookResults, type CatalogueBook } from '../../../contract/books.ts';
import { ErrorReply } from '../../../contract/errors.ts';
import { type Authenticator, guardRoutes } from '../auth/authenticate.ts';
import type { BooksService } from '../books/books.service.ts';
import type { LibraryFiles } from '../books/library/library.files.ts';
import type { Clock } from '../clock.ts';
import type { ShelvesService } from '../shelves/shelves.service.ts';
import type { ArticlesToRead } from '../bookmarks/archive/articles-to-read.ts';
import { asciiFileName, fileName } from '../books/library/download-name.ts';
import { create as contentDisposition } from 'content-disposition';
import { notFound } from '../errors.ts';
import { requestOrigin } from '../http/request-origin.ts';
import { letterOf } from '../books/books.service.ts';
import { type BrowseFacet, createBrowseIndex } from './opds.browse.ts';
import { feedBooks, listedInFeeds } from './opds.entries.ts';
import type { OpdsPage } from './opds.pages.ts';
import { OPDS_PAGE_SIZE, REL } from './opds.vocabulary.ts';

type Options = { books: BooksService; shelves: ShelvesService; articles: ArticlesToRead; files: LibraryFiles; authenticator: Authenticator; clock: Clock; publicUrl: string | undefined };

const Page = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(100_000, 'must be at most 100000')
  .default(1);
const PageQuery = z.strictObject({ page: Page });
const ShelfQuery = z.strictObject({ name: z.string().min(1, 'must not be empty').max(2000), page: Page });
const SearchQuery = z.strictObject({ q: z.string().max(1000, 'must be at most 1000 characters').default(''), page: Page });
const LetterParams = z.strictObject({ letter: z.string().regex(/^([A-Z]|other)$/, 'must be a letter A–Z or other') });
const ShelfParams = z.strictObject({ id: z.string().min(1).max(64) });
const ArticleParams = z.strictObject({ id: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(Number.MAX_SAFE_INTEGER) });
const FormatParams = z.strictObject({ format: z.enum(BOOK_FORMATS, { error: `must be one of ${BOOK_FORMATS.join(', ')}` }) });

/** Authors filed under no letter A–Z ('#') are at `/opds/authors/other`: a '#' in a path is a fragment. */
/** The person a request is from: a signed-in user or an e-reader's app password; null for the shared books key. */
function personOf(request: FastifyRequest): string | null {
  const principal = request.principal;
  if (principal?.kind === 'user' || principal?.kind === 'api-token') return principal.user.uid;
  if (principal?.kind === 'e-reader') return principal.userId;
  return null;
}

const letterPath = (letter: string) => `/opds/authors/${letter === '#' ? 'other' : letter}`;
const FACETS: Record<BrowseFacet, { title: string; one: string }> = {
  authors: { title: 'Authors', one: 'Author' },
  series: { title: 'Series', one: 'Series' },
  tags: { title: 'Tags', one: 'Tag' },
};

/**
 * The OPDS 1.2 catalogue for e-readers (KOReader, Moon+ Reader, Thorium, Foliate): Atom feeds of
 * the books service's results (opds.pages.ts writes them), signed in with HTTP Basic
 * (auth/basic-auth.ts), a bearer token, or the shared books key (`X-API-Key`).
 */
export const opdsRoutes: FastifyPluginAsync<Options> = async (app, { books, shelves, articles, files, authenticator, clock, publicUrl }) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const browse = createBrowseIndex(books, listedInFeeds(files));
  // The shared books key reads the catalogue wherever it is served, its feeds as much as /api/books.
  guardRoutes(app, authenticator.requireEReader);
  const docs = (summary: string) => ({
    tags: ['opds'],
    summary,
    // The XML is a string: Fastify sends strings as they are, without the serializer.
    response: { 200: z.string().describe('Atom (OPDS 1.2) or OpenSearch XML'), 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 429: ErrorReply },
  });
  // The feeds' writers and their XML library (a few MB held once loaded) wait for the first OPDS request.
  let writers: Promise<typeof import('./opds.pages.ts')> | undefined;
  const pagesFor = async (request: FastifyRequest) => {
    writers ??= import('./opds.pages.ts');
    return (await writers).opdsPages(requestOrigin(publicUrl, request), new Date(clock.now()));
  };
  const send = (reply: FastifyReply, page: OpdsPage) => reply.type(page.type).send(page.body);

  /**
   * A page of the books service's search (the same search and cache as `GET /api/books`), comments
   * included for the summaries, less the books without a file to download (opds.entries.ts). The
   * total is the search's. Without a library folder no book has a file: no search is made.
   */
  async function searchPage(query: Partial<Record<keyof BookQuery, string>>, page: number) {
    if (!files.served) return { books: [], total: 0 };
    const from = String((page - 1) * OPDS_PAGE_SIZE.books);
    const question = BookQuery.parse({ ...query, from, size: String(OPDS_PAGE_SIZE.books), includeComment: 'true' });
    const results = BookResults.parse(JSON.parse(await books.searchReply(question)));
    return { books: await feedBooks(files, results.books as CatalogueBook[]), total: results.total };
  }

  routes.get('/opds', { schema: docs("The OPDS catalogue's root: Newest, Authors A–Z, Series, Tags, Formats, and a person's Shelves") }, async (request, reply) =>
    send(
      reply,
      (await pagesFor(request)).navigation({ id: 'root', title: 'Organiser books', path: '/opds', up: null }, [
        { id: 'new', title: 'Newest', content: 'The books last added or changed, newest first', path: '/opds/new', kind: 'acquisition', rel: REL.newest },
        { id: 'authors', title: 'Authors A–Z', content: 'The books by author, filed by surname', path: '/opds/authors', kind: 'navigation' },
        { id: 'series', title: 'Series', content: 'The books by series, in series order', path: '/opds/series', kind: 'navigation' },
        { id: 'tags', title: 'Tags', content: 'The books by tag', path: '/opds/tags', kind: 'navigation' },
        { id: 'formats', title: 'Formats', content: 'The books by file format', path: '/opds/formats', kind: 'navigation' },
        ...(personOf(request) === null
          ? []
          : [
              { id: 'shelves', title: 'Shelves', content: 'Your shelves and those shared with you', path: '/opds/shelves', kind: 'navigation' as const },
              { id: 'articles', title: 'Articles', content: 'The pages you kept from your bookmarks, each as an EPUB', path: '/opds/articles', kind: 'acquisition' as const },
            ]),
      ]),
    ),
  );

  routes.get('/opds/opensearch.xml', { schema: docs('The OpenSearch description: how a reader searches the catalogue') }, async (request, reply) =>
    send(reply, (await pagesFor(request)).openSearch()),
  );

  routes.get('/opds/new', { schema: { ...docs('Newest books first (an acquisition feed, paged)'), querystring: PageQuery } }, async (request, reply) => {
    const { page } = request.query;
    const found = await searchPage({}, page);
    return send(reply, (await pagesFor(request)).books({ id: 'new', title: 'Newest', path: '/opds/new', up: '/opds' }, found.books, found.total, page));
  });

  routes.get(
    '/opds/search',
    { schema: { ...docs('Books matching the words in title or author (an acquisition feed, paged)'), querystring: SearchQuery } },
    async (request, reply) => {
      const { q, page } = request.query;
      const found = await searchPage({ keys: q, fields: 'title,author' }, page);
      const place = { id: `search:${encodeURIComponent(q)}`, title: `Search: ${q}`, path: '/opds/search', query: { q }, up: '/opds' };
      return send(reply, (await pagesFor(request)).books(place, found.books, found.total, page));
    },
  );

  routes.get('/opds/formats', { schema: docs('The formats (a navigation feed)') }, async (request, reply) =>
    send(
      reply,
      (await pagesFor(request)).navigation(
        { id: 'formats', title: 'Formats', path: '/opds/formats', up: '/opds' },
        BOOK_FORMATS.map((format) => ({
          id: `format:${format}`,
          title: format.toUpperCase(),
          content: `Books with a ${format.toUpperCase()} file`,
          path: `/opds/formats/${format}`,
          kind: 'acquisition',
        })),
      ),
    ),
  );

  routes.get(
    '/opds/formats/:format',
    { schema: { ...docs('Books with a file of one format (an acquisition feed, paged)'), params: FormatParams, querystring: PageQuery } },
    async (request, reply) => {
      const { format } = request.params;
      const { page } = request.query;
      const found = await searchPage({ format }, page);
      const place = { id: `format:${format}`, title: format.toUpperCase(), path: `/opds/formats/${format}`, up: '/opds/formats' };
      return send(reply, (await pagesFor(request)).books(place, found.books, found.total, page));
    },
  );

  routes.get('/opds/authors', { schema: docs('The letters authors are filed under (a navigation feed)') }, async (request, reply) => {
    const counts = new Map<string, number>();
    for (const { name } of (await browse.current()).authors) counts.set(letterOf(name), (counts.get(letterOf(name)) ?? 0) + 1);
    const letters = [...counts].sort(([a], [b]) => (a === '#' ? 1 : b === '#' ? -1 : a.localeCompare(b)));
    return send(
      reply,
      (await pagesFor(request)).navigation(
        { id: 'authors', title: 'Authors A–Z', path: '/opds/authors', up: '/opds' },
        letters.map(([letter, count]) => ({
          id: `authors:${letter}`,
          title: letter,
          content: count === 1 ? '1 author' : `${count} authors`,
          path: letterPath(letter),
          kind: 'navigation',
        })),
      ),
    );
  });

  routes.get(
    '/opds/authors/:letter',
    { schema: { ...docs('The authors filed under a letter (a navigation feed, paged)'), params: LetterParams, querystring: PageQuery } },
    async (request, reply) => {
      const filed = request.params.letter === 'other' ? '#' : request.params.letter;
      const authors = (await browse.current()).authors.filter((shelf) => letterOf(shelf.name) === filed);
      if (authors.length === 0) throw notFound('Letter');
      const place = { id: `authors:${filed}`, title: `Authors: ${filed}`, path: letterPath(filed), up: '/opds/authors' };
      return send(reply, (await pagesFor(request)).shelves(place, 'authors', authors, request.query.page));
    },
  );

  for (const facet of ['series', 'tags'] as const) {
    routes.get(`/opds/${facet}`, { schema: { ...docs(`The ${facet} (a navigation feed, paged)`), querystring: PageQuery } }, async (request, reply) => {
      const place = { id: facet, title: FACETS[facet].title, path: `/opds/${facet}`, up: '/opds' };
      return send(reply, (await pagesFor(request)).shelves(place, facet, (await browse.current())[facet], request.query.page));
    });
  }

  for (const facet of ['authors', 'series', 'tags'] as const) {
    routes.get(
      `/opds/${facet}/books`,
      { schema: { ...docs(`The books of one of the ${facet} (an acquisition feed, paged)`), querystring: ShelfQuery } },
      async (request, reply) => {
        const { name, page } = request.query;
        const shelf = (await browse.current())[facet].find((one) => one.name === name);
        if (!shelf) throw notFound(FACETS[facet].one);
        const ids = shelf.bookIds.slice((page - 1) * OPDS_PAGE_SIZE.books, page * OPDS_PAGE_SIZE.books);
        const up = facet === 'authors' ? letterPath(letterOf(name)) : `/opds/${facet}`;
        const place = { id: `${facet}:${encodeURIComponent(name)}`, title: name, path: `/opds/${facet}/books`, query: { name }, up };
        return send(reply, (await pagesFor(request)).books(place, await feedBooks(files, await books.getMany(ids)), shelf.bookIds.length, page));
      },
    );
  }

  routes.get('/opds/shelves', { schema: docs("A person's shelves and those shared with them (a navigation feed)") }, async (request, reply) => {
    const person = personOf(request);
    const listed = person === null ? [] : await shelves.list(person, null);
    return send(
      reply,
      (await pagesFor(request)).navigation(
        { id: 'shelves', title: 'Shelves', path: '/opds/shelves', up: '/opds' },
        listed.map((shelf) => ({
          id: `shelf:${shelf.id}`,
          title: shelf.access === 'owner' ? shelf.name : `${shelf.name} (${shelf.owner.display_name})`,
          content: shelf.book_count === 1 ? '1 book' : `${shelf.book_count} books`,
          path: `/opds/shelves/${encodeURIComponent(shelf.id)}`,
          kind: 'acquisition',
        })),
      ),
    );
  });

  routes.get(
    '/opds/shelves/:id',
    { schema: { ...docs('The books of one shelf, last added first (an acquisition feed, paged)'), params: ShelfParams, querystring: PageQuery } },
    async (request, reply) => {
      const person = personOf(request);
      // The shared books key is no one: it has no shelves.
      if (person === null) throw notFound('Shelf');
      const { id } = request.params;
      const { page } = request.query;
      const found = await shelves.feedBooks(person, id, (page - 1) * OPDS_PAGE_SIZE.books, OPDS_PAGE_SIZE.books);
      const place = { id: `shelf:${id}`, title: found.shelf.name, path: `/opds/shelves/${encodeURIComponent(id)}`, up: '/opds/shelves' };
      const entries = files.served ? await feedBooks(files, found.books) : [];
      return send(reply, (await pagesFor(request)).books(place, entries, files.served ? found.shelf.book_count : 0, page));
    },
  );

  routes.get(
    '/opds/articles',
    { schema: { ...docs("A person's kept articles, newest first, each as an EPUB (an acquisition feed, paged)"), querystring: PageQuery } },
    async (request, reply) => {
      const person = personOf(request);
      // The shared books key is no one: it has no bookmarks.
      const { page } = request.query;
      const found = person === null ? { total: 0, articles: [] } : await articles.page(person, (page - 1) * OPDS_PAGE_SIZE.books, OPDS_PAGE_SIZE.books);
      const place = { id: 'articles', title: 'Articles', path: '/opds/articles', up: '/opds' };
      const entries = found.articles.map(({ keptAt, ...article }) => ({ ...article, kept: new Date(keptAt) }));
      return send(reply, (await pagesFor(request)).articles(place, entries, found.total, page));
    },
  );

  routes.get(
    '/opds/articles/:id/epub',
    {
      schema: {
        tags: ['opds'],
        summary: 'A kept article as an EPUB, made from its copy',
        params: ArticleParams,
        response: { 200: z.any().describe('application/epub+zip'), 400: ErrorReply, 401: ErrorReply, 404: ErrorReply, 429: ErrorReply },
      },
    },
    async (request, reply) => {
      const person = personOf(request);
      if (person === null) throw notFound('Article');
      const { title, epub } = await articles.epub(person, request.params.id);
      const name = fileName([title], 'article', 'epub');
      return reply
        .type('application/epub+zip')
        .header('content-disposition', contentDisposition(name, { fallback: asciiFileName(name) }))
        .send(Buffer.from(epub));
    },
  );
};
