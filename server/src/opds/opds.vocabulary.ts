/**
 * What the OPDS routes name without writing a feed: the feeds' writers (opds.pages.ts, and
 * xmlbuilder2 under them) are loaded with the first OPDS request.
 */

/** The Content-Types of OPDS 1.2 §2.5: a reader tells a navigation feed from an acquisition feed by them. */
export const OPDS_TYPES = {
  navigation: 'application/atom+xml;profile=opds-catalog;kind=navigation',
  acquisition: 'application/atom+xml;profile=opds-catalog;kind=acquisition',
  openSearch: 'application/opensearchdescription+xml',
} as const;

export const REL = {
  acquisition: 'http://opds-spec.org/acquisition',
  image: 'http://opds-spec.org/image',
  thumbnail: 'http://opds-spec.org/image/thumbnail',
  newest: 'http://opds-spec.org/sort/new',
} as const;

/** Books in one page of an acquisition feed; shelves in one page of a navigation feed. */
export const OPDS_PAGE_SIZE = { books: 25, shelves: 100 } as const;
