import type { Shelf } from './opds.browse.ts';
import { acquisitionFeed, articleFeed, type FeedArticle, type FeedBook, type FeedLink, latestChange, type NavigationEntry, navigationFeed, openSearchDescription } from './opds.feed.ts';
import { OPDS_PAGE_SIZE, OPDS_TYPES } from './opds.vocabulary.ts';

/** A feed as sent: its Content-Type and its XML. */
export type OpdsPage = { type: string; body: string };

type Kind = 'navigation' | 'acquisition';

/** Where a feed is and what it links up to: `path` and `query` make each page's own address. */
export type FeedPlace = { id: string; title: string; path: string; query?: Record<string, string>; up: string | null };

/** A link from a navigation feed to another feed. */
export type FeedChoice = { id: string; title: string; content: string; path: string; kind: Kind; rel?: string };

const urn = (id: string) => `urn:organiser:opds:${id}`;

/**
 * Writes the catalogue's pages for one request: every address absolute, from the origin the
 * reader is told (`PUBLIC_URL` or the one it asked), since some readers resolve relative ones badly.
 */
export function opdsPages(origin: string, now: Date) {
  const at = (path: string, query: Record<string, string | number> = {}) => {
    const search = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)])).toString();
    return `${origin}${path}${search ? `?${search}` : ''}`;
  };
  const pageUrl = (place: FeedPlace) => (page: number) => at(place.path, { ...place.query, ...(page > 1 ? { page } : {}) });
  const pageId = (place: FeedPlace, page: number) => urn(page > 1 ? `${place.id}:page:${page}` : place.id);

  /** self, start, up and search: every feed has them, so a reader can always go home or search. */
  function commonLinks(self: string, kind: Kind, up: string | null): FeedLink[] {
    return [
      { rel: 'self', href: self, type: OPDS_TYPES[kind] },
      { rel: 'start', href: at('/opds'), type: OPDS_TYPES.navigation },
      ...(up ? [{ rel: 'up', href: at(up), type: OPDS_TYPES.navigation }] : []),
      { rel: 'search', href: at('/opds/opensearch.xml'), type: OPDS_TYPES.openSearch, title: 'Search the books' },
    ];
  }

  /** first, previous, next and last of a paged feed; pages are numbered from 1. */
  function pageLinks(url: (page: number) => string, page: number, count: number, size: number, kind: Kind): FeedLink[] {
    const type = OPDS_TYPES[kind];
    const last = Math.max(1, Math.ceil(count / size));
    return [
      { rel: 'first', href: url(1), type },
      ...(page > 1 ? [{ rel: 'previous', href: url(Math.min(page - 1, last)), type }] : []),
      ...(page < last ? [{ rel: 'next', href: url(page + 1), type }] : []),
      { rel: 'last', href: url(last), type },
    ];
  }

  const entryOf = (choice: FeedChoice): NavigationEntry => ({
    id: urn(choice.id),
    title: choice.title,
    content: choice.content,
    updated: now,
    link: { rel: choice.rel ?? 'subsection', href: at(choice.path), type: OPDS_TYPES[choice.kind] },
  });

  const navigation = (place: FeedPlace, choices: FeedChoice[], paging: FeedLink[] = [], page = 1): OpdsPage => ({
    type: `${OPDS_TYPES.navigation};charset=utf-8`,
    body: navigationFeed(
      { id: pageId(place, page), title: place.title, updated: now, links: [...commonLinks(pageUrl(place)(page), 'navigation', place.up), ...paging] },
      choices.map(entryOf),
    ),
  });

  return {
    navigation: (place: FeedPlace, choices: FeedChoice[]) => navigation(place, choices),

    /** One page of shelves (authors under a letter, series, tags), each a link to its books. */
    shelves(place: FeedPlace, facet: 'authors' | 'series' | 'tags', shelves: Shelf[], page: number): OpdsPage {
      const size = OPDS_PAGE_SIZE.shelves;
      const shown = shelves.slice((page - 1) * size, page * size).map(
        (shelf): FeedChoice => ({
          id: `${facet}:${encodeURIComponent(shelf.name)}`,
          title: shelf.name,
          content: shelf.bookIds.length === 1 ? '1 book' : `${shelf.bookIds.length} books`,
          path: `/opds/${facet}/books?${new URLSearchParams({ name: shelf.name })}`,
          kind: 'acquisition',
        }),
      );
      return navigation(place, shown, pageLinks(pageUrl(place), page, shelves.length, size, 'navigation'), page);
    },

    /** One page of books as an acquisition feed, `total` of them in all. */
    books(place: FeedPlace, books: FeedBook[], total: number, page: number): OpdsPage {
      const size = OPDS_PAGE_SIZE.books;
      const url = pageUrl(place);
      const head = {
        id: pageId(place, page),
        title: place.title,
        updated: latestChange(books.map((entry) => entry.book), now),
        links: [...commonLinks(url(page), 'acquisition', place.up), ...pageLinks(url, page, total, size, 'acquisition')],
      };
      const urls = {
        cover: (id: string, coverSize: 'thumb' | 'full') => at(`/api/books/${encodeURIComponent(id)}/cover`, { size: coverSize }),
        file: (id: string, format: string) => at(`/api/books/${encodeURIComponent(id)}/file/${format}`),
      };
      return {
        type: `${OPDS_TYPES.acquisition};charset=utf-8`,
        body: acquisitionFeed(head, books, urls, { total, from: (page - 1) * size, size }),
      };
    },

    /** One page of the person's kept articles (bookmarks/archive/), `total` in all, each as an EPUB. */
    articles(place: FeedPlace, articles: Array<Omit<FeedArticle, 'id' | 'epub'> & { bookmarkId: number }>, total: number, page: number): OpdsPage {
      const size = OPDS_PAGE_SIZE.books;
      const url = pageUrl(place);
      const head = {
        id: pageId(place, page),
        title: place.title,
        updated: articles.length === 0 ? now : new Date(Math.max(...articles.map((article) => article.kept.getTime()))),
        links: [...commonLinks(url(page), 'acquisition', place.up), ...pageLinks(url, page, total, size, 'acquisition')],
      };
      const entries = articles.map(({ bookmarkId, ...article }) => ({
        ...article,
        id: `urn:organiser:bookmark:${bookmarkId}`,
        epub: at(`/opds/articles/${bookmarkId}/epub`),
      }));
      return { type: `${OPDS_TYPES.acquisition};charset=utf-8`, body: articleFeed(head, entries, { total, from: (page - 1) * size, size }) };
    },

    openSearch: (): OpdsPage => ({
      type: `${OPDS_TYPES.openSearch};charset=utf-8`,
      body: openSearchDescription(`${at('/opds/search')}?q={searchTerms}`),
    }),
  };
}
