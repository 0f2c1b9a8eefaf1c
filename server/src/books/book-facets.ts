import { BOOK_FORMATS } from '../../../contract/book-fields.ts';
import type { BookFacet, BrowseEntry, CatalogueBook } from '../../../contract/books.ts';

// The word index's threads count facets and load this module: its values come from book-fields.ts,
// never from books.ts, whose zod would slow every thread's start.
const BOOK_FACET_NAMES: readonly BookFacet[] = ['authors', 'series', 'tags', 'languages', 'formats', 'publishers'];

/**
 * Where a name is filed: an author by surname, as Calibre's author sort does by default ("Hugo,
 * Victor"; the catalogue keeps no author sort of its own); any other value as it is.
 */
export function filingName(name: string, facet: BookFacet): string {
  if (facet !== 'authors' || name.includes(',')) return name;
  const words = name.split(/\s+/);
  return words.length < 2 ? name : `${words.at(-1)}, ${words.slice(0, -1).join(' ')}`;
}

/** The letter a value is filed under: A–Z with accents folded, '#' for anything else. */
export function letterOf(name: string, facet: BookFacet = 'authors'): string {
  const first = filingName(name, facet).normalize('NFD').replace(/\p{M}/gu, '').charAt(0).toUpperCase();
  return /^[A-Z]$/.test(first) ? first : '#';
}

/** Authors as Calibre joins them (' & '), each one a shelf. */
export const authorsOf = (book: Pick<CatalogueBook, 'author'>) =>
  book.author
    .split(' & ')
    .map((name) => name.trim())
    .filter(Boolean);

/** A facet's values with their counts of books, filed A–Z (authors by surname). */
export function facetEntries(facet: BookFacet, counts: ReadonlyMap<string, number>): BrowseEntry[] {
  const filed = new Map([...counts.keys()].map((name) => [name, filingName(name, facet)]));
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => filed.get(a.name)!.localeCompare(filed.get(b.name)!, 'en', { sensitivity: 'base' }) || a.name.localeCompare(b.name));
}

/** What a book is browsed by: its row's authors, series, tags, languages, formats and publisher. */
export type FacetedRow = { author: string; series: string | null; tags: string[]; languages: string[]; format_mask: number; publisher: string };

/** Counts the books of each value of every facet, a book at a time (the word index's build does, reading every row). */
export function facetCounter() {
  const counts = Object.fromEntries(BOOK_FACET_NAMES.map((facet) => [facet, new Map<string, number>()])) as Record<BookFacet, Map<string, number>>;
  const count = (facet: BookFacet, values: Iterable<string>) => {
    for (const value of new Set(values)) if (value !== '') counts[facet].set(value, (counts[facet].get(value) ?? 0) + 1);
  };
  return {
    add(row: FacetedRow) {
      count('authors', authorsOf(row));
      count('series', row.series === null ? [] : [row.series]);
      count('tags', row.tags);
      count('languages', row.languages);
      count('formats', BOOK_FORMATS.filter((_, bit) => (row.format_mask & (1 << bit)) !== 0));
      count('publishers', [row.publisher]);
    },
    finish: (): Record<BookFacet, BrowseEntry[]> =>
      Object.fromEntries(BOOK_FACET_NAMES.map((facet) => [facet, facetEntries(facet, counts[facet])])) as Record<BookFacet, BrowseEntry[]>,
  };
}
