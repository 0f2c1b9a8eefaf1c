import { type AtomFeed, parseAtomFeed } from 'feedsmith';
import { XMLValidator } from 'fast-xml-parser';
import { expect } from 'vitest';

export const NAVIGATION = 'application/atom+xml;profile=opds-catalog;kind=navigation';
export const ACQUISITION = 'application/atom+xml;profile=opds-catalog;kind=acquisition';
export const REL = {
  acquisition: 'http://opds-spec.org/acquisition',
  image: 'http://opds-spec.org/image',
  thumbnail: 'http://opds-spec.org/image/thumbnail',
};
/** RFC 3339, as Atom's dates must be (RFC 4287 §3.3). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const MIME_TYPES = ['application/epub+zip', 'application/pdf', 'application/x-mobipocket-ebook', 'application/vnd.amazon.mobi8-ebook', 'application/vnd.ms-htmlhelp'];

export type Feed = AtomFeed.Feed<string>;
type Link = NonNullable<Feed['links']>[number];

/**
 * Checks what OPDS 1.2 and Atom (RFC 4287) require of every feed, as a reader relies on it: well-formed
 * XML; id, title, updated and an author on the feed; id, title and updated on each entry; a type on
 * every link of a navigation entry, one acquisition link with a known type on each book.
 */
export function checkedFeed(xml: string, kind: 'navigation' | 'acquisition'): Feed {
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

export const linkOf = (links: Link[] | undefined, rel: string) => links?.find((link) => link.rel === rel);
export const entryTitled = (feed: Feed, title: string) => {
  const entry = feed.entries?.find((one) => one.title?.value === title);
  if (!entry) throw new Error(`no entry "${title}" in ${feed.id}: ${feed.entries?.map((one) => one.title?.value).join(', ')}`);
  return entry;
};
export const hrefOf = (entry: NonNullable<Feed['entries']>[number]) => entry.links![0]!.href!;

