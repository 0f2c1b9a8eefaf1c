import type { CatalogueBook } from '../../../contract/books.ts';
import { authorsOf, filingName } from '../books/books.service.ts';
import type { BooksService } from '../books/books.service.ts';

/** The books of one author, series or tag, by id, in the order the acquisition feed lists them. */
export type Shelf = { name: string; bookIds: string[] };

/** What the OPDS catalogue is browsed by, worked out from the whole catalogue. */
export type BrowseIndex = {
  authors: Shelf[];
  series: Shelf[];
  tags: Shelf[];
};

export type BrowseFacet = keyof BrowseIndex;

type Entry = Pick<CatalogueBook, 'id' | 'updated' | 'series_index'>;
type Order = (a: Entry, b: Entry) => number;

const newestFirst: Order = (a, b) => (b.updated ?? '').localeCompare(a.updated ?? '') || a.id.localeCompare(b.id);
const inSeriesOrder: Order = (a, b) => (a.series_index ?? 0) - (b.series_index ?? 0) || newestFirst(a, b);

function shelves(groups: Map<string, Entry[]>, facet: BrowseFacet, order: Order): Shelf[] {
  const filed = (name: string) => filingName(name, facet);
  return [...groups]
    .map(([name, books]) => ({ name, bookIds: books.sort(order).map((book) => book.id) }))
    .sort((a, b) => filed(a.name).localeCompare(filed(b.name), 'en', { sensitivity: 'base' }) || a.name.localeCompare(b.name));
}

function add(groups: Map<string, Entry[]>, name: string, book: Entry) {
  const group = groups.get(name);
  if (group) group.push(book);
  else groups.set(name, [book]);
}

/**
 * Neither database keeps authors, series or tags in a table of their own (a book row holds them),
 * so the shelves are worked out by reading the catalogue once, and kept until a load commits: an
 * e-reader browses the same shelves page after page. Only ids and sort keys are kept, never the
 * books; a 50 000-book library reads in a few seconds, once per load. Only the books `listed` are
 * on the shelves.
 */
export function createBrowseIndex(books: Pick<BooksService, 'all' | 'version'>, listed: (book: CatalogueBook) => boolean = () => true) {
  let kept: { version: string; index: Promise<BrowseIndex> } | null = null;

  async function build(): Promise<BrowseIndex> {
    const authors = new Map<string, Entry[]>();
    const series = new Map<string, Entry[]>();
    const tags = new Map<string, Entry[]>();
    for await (const book of books.all()) {
      if (!listed(book)) continue;
      const entry: Entry = { id: book.id, updated: book.updated, series_index: book.series_index };
      for (const author of authorsOf(book)) add(authors, author, entry);
      if (book.series) add(series, book.series, entry);
      for (const tag of book.tags) add(tags, tag, entry);
    }
    return {
      authors: shelves(authors, 'authors', newestFirst),
      series: shelves(series, 'series', inSeriesOrder),
      tags: shelves(tags, 'tags', newestFirst),
    };
  }

  return {
    async current(): Promise<BrowseIndex> {
      const version = await books.version();
      if (kept?.version !== version) {
        const index = build();
        kept = { version, index };
        index.catch(() => {
          if (kept?.index === index) kept = null;
        });
      }
      return kept.index;
    },
  };
}
export type BrowseIndexes = ReturnType<typeof createBrowseIndex>;
