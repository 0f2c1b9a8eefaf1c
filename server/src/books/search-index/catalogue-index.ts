import { BOOK_FORMATS, BOOK_INDEXED_FIELDS, type BookIndexedField, type BookSearchField } from '../../../../contract/book-fields.ts';
import { searchWords } from '../../search/search-text.ts';
import type { StoredBook } from '../book-row.ts';
import { RANKED_MATCH_LIMIT, ranksTitleMatchesFirst } from '../book-ranking.ts';
import type { BookFacet, BrowseEntry } from '../../../../contract/books.ts';
import { facetCounter } from '../book-facets.ts';
import { indexedFieldText } from '../indexed-text.ts';
import { addDoc, countDocs, docBits, type DocBits, docsOf, hasDoc, intersectInto, lastDocsOf } from './doc-bits.ts';
import { type FieldPostings, fieldPostings, fieldPostingsBuilder, type FieldPostingsData, hasWords, type WordRange } from './field-postings.ts';
import { withRoom } from './growable.ts';
import { pageOfKeys } from './page-of-keys.ts';
import { sharedArray, sharedCopy } from './shared-arrays.ts';

/** What a search asks of the index: the words (each a prefix), the fields, the format and the page. */
export type IndexQuery = {
  terms: string[];
  fields: BookSearchField[];
  format: '' | (typeof BOOK_FORMATS)[number];
  from: number;
  size: number;
};

/** What the index reads of a book's row: its searched text, its place in the catalogue, what ranks and filters it. */
export const INDEXED_COLUMNS = ['seq', 'title_words', 'format_mask', 'id', 'title', 'author', 'comment', 'path', 'formats', 'tags', 'series', 'identifiers', 'languages', 'publisher'] as const;
export type IndexedRow = Pick<StoredBook, Exclude<(typeof INDEXED_COLUMNS)[number], 'seq'>> & { seq: number };

/**
 * A search whose rarest term has fewer books than this share of the catalogue, all words counted, is
 * answered from their lists (few books) rather than from a bit per book of the catalogue (a pass
 * over N / 32 integers for each set, whatever it holds). The lists' path passes over each term's
 * books two or three times, the bits' path once plus a few passes of N / 32: with the common words'
 * sets kept, a search at a million books cost least at a 64th and less (a 16th: 0.73–0.87 ms a
 * search over all fields, 0.43–0.47 over titles; a 64th: 0.63–0.69 and 0.35–0.38; no better below).
 */
const SPARSE_SHARE = 1 / 64;
/**
 * Beside the rarest term, the lists' path unions each other term that is not kept into a set and
 * clears it again (two passes over its lists), where the bits' path unions it once and makes a few
 * passes of N / 32. Up to this share of the catalogue for those terms together the lists' path
 * costs less (a million books, the benchmark's stream over all fields: a rare and a middling word
 * 0.34 ms on the lists, 0.66 on the bits; at an eighth, the lists cost more).
 */
const UNIONED_SHARE = 1 / 16;
/** More candidates than the catalogue over this are read back from their bits in one pass rather than sorted. */
const SORTED_SHARE = 512;

/**
 * The books of a term over the searched fields are kept when its words list more than this share of
 * the catalogue's books: the set then costs one pass, where unioning its lists cost more.
 */
const KEPT_UNION_SHARE = 1 / 8;
const KEPT_UNIONS = 64;

/** A built index as its arrays (in shared memory): what the building thread sends the searching ones. */
export type CatalogueIndexData = {
  books: number;
  /** Each book's `seq`, in 32 bits while every one fits (4 MB less at a million books), else in 64. */
  seqs: Uint32Array | Float64Array;
  titleWords: Uint16Array;
  postings: Record<BookIndexedField, FieldPostingsData>;
  byFormat: DocBits[];
  /** What the catalogue is browsed by, each value with its count of books (book-facets.ts); the main thread's alone. */
  facets: Record<BookFacet, BrowseEntry[]>;
};

export type CatalogueIndex = {
  books: number;
  /** The matching books' count (exact) and the page's books as their `seq`, ranked as books.search.ts says. */
  search(query: IndexQuery, identified: readonly number[]): { total: number; seqs: number[] };
};

/** The fields' text of a stored row. */
const bookOfRow = (row: IndexedRow) => ({
  ...row,
  formats: JSON.parse(row.formats) as string[],
  tags: JSON.parse(row.tags ?? '[]') as string[],
  series: row.series ?? null,
  identifiers: JSON.parse(row.identifiers ?? '{}') as Record<string, string>,
});

/** The postings of some fields, built from rows in catalogue order: a book is its row's place in that order. */
export function rowPostingsBuilder(fields: readonly BookIndexedField[]) {
  const builders = fields.map((field) => [field, fieldPostingsBuilder()] as const);
  let books = 0;
  return {
    add(row: IndexedRow) {
      const doc = books++;
      const book = bookOfRow(row);
      for (const [field, builder] of builders) builder.add(doc, searchWords(indexedFieldText(book, field)));
    },
    finish: (): Partial<Record<BookIndexedField, FieldPostingsData>> => Object.fromEntries(builders.map(([field, builder]) => [field, builder.finish()])),
  };
}

/**
 * The catalogue's words held in memory, built from its rows in catalogue (`seq`) order: a search
 * is unions and intersections of bitmaps and an exact count, whatever its words (docs/book-search.md). A prefix that expands to many books (a lone "a") is unioned once and kept.
 * The postings of the fields not built `here` are built from the same rows elsewhere and given to `finish`.
 */
export function catalogueIndexBuilder(here: readonly BookIndexedField[] = BOOK_INDEXED_FIELDS) {
  const fields = rowPostingsBuilder(here);
  let seqs = new Float64Array(1024);
  let titleWords = new Uint16Array(1024);
  let formatMasks = new Uint8Array(1024);
  let books = 0;
  const facets = facetCounter();

  return {
    add(row: IndexedRow) {
      const doc = books++;
      seqs = withRoom(seqs, books);
      titleWords = withRoom(titleWords, books);
      formatMasks = withRoom(formatMasks, books);
      seqs[doc] = Number(row.seq);
      titleWords[doc] = Math.min(Number(row.title_words), 0xffff);
      formatMasks[doc] = Number(row.format_mask);
      fields.add(row);
      facets.add({
        author: row.author,
        series: row.series ?? null,
        tags: JSON.parse(row.tags ?? '[]') as string[],
        languages: JSON.parse(row.languages ?? '[]') as string[],
        format_mask: Number(row.format_mask),
        publisher: row.publisher,
      });
    },

    finish(elsewhere: Partial<Record<BookIndexedField, FieldPostingsData>> = {}): CatalogueIndexData {
      const built = { ...fields.finish(), ...elsewhere };
      const missing = BOOK_INDEXED_FIELDS.filter((field) => built[field] === undefined);
      if (missing.length > 0) throw new Error(`The index has no postings of ${missing.join(', ')}`);
      const postings = built as Record<BookIndexedField, FieldPostingsData>;
      const byFormat = BOOK_FORMATS.map((_, bit) => {
        const bits = sharedArray(Uint32Array, docBits(books).length);
        for (let doc = 0; doc < books; doc++) if ((formatMasks[doc]! & (1 << bit)) !== 0) addDoc(bits, doc);
        return bits;
      });
      // Copies of their used part: the room grown for further books would stay with the index.
      const used = seqs.subarray(0, books);
      // In catalogue order: the last is the largest.
      const fitIn32Bits = books === 0 || used[books - 1]! <= 0xffffffff;
      const index = {
        books,
        seqs: fitIn32Bits ? sharedCopy(Uint32Array.from(used)) : sharedCopy(used),
        titleWords: sharedCopy(titleWords.subarray(0, books)),
        postings,
        byFormat,
        facets: facets.finish(),
      };
      seqs = new Float64Array(0);
      titleWords = new Uint16Array(0);
      formatMasks = new Uint8Array(0);
      return index;
    },
  };
}

/** The searches of a built index: each thread reads the shared arrays through an object of its own. */
export function catalogueIndex({ books, seqs, titleWords, postings: data, byFormat }: Omit<CatalogueIndexData, 'facets'>): CatalogueIndex {
  const postings = Object.fromEntries(BOOK_INDEXED_FIELDS.map((field) => [field, fieldPostings(data[field])])) as Record<
    BookIndexedField,
    FieldPostings
  >;

  /** One term of a search: its words' place in each field where it has any, and how many books they list (its cost). */
  type Term = { word: string; key: string; ranges: Array<{ field: BookIndexedField; range: WordRange }>; cost: number };
  const term = (word: string, fields: readonly BookIndexedField[], ranges: Term['ranges']): Term => ({
    word,
    key: `${fields.join(',')} ${word}`,
    ranges,
    cost: ranges.reduce((sum, { field, range }) => sum + postings[field].postingsIn(range), 0),
  });
  /** The terms over the fields the index holds: the books' text is searched beside it (book-text/), its books given as `identified`. */
  const termsOf = (words: readonly string[], searched: readonly BookSearchField[]): Term[] => {
    const fields = searched.filter((field): field is BookIndexedField => field !== 'text');
    return words.map((word) =>
      term(
        word,
        fields,
        fields.map((field) => ({ field, range: postings[field].prefixRange(word) })).filter(({ range }) => hasWords(range)),
      ),
    );
  };
  /** The same terms over the title alone, from the title's words they found already. */
  const overTitle = (terms: readonly Term[]): Term[] =>
    terms.map(({ word, ranges }) => term(word, ['title'], ranges.filter(({ field }) => field === 'title')));
  const addTerm = (bits: DocBits, { ranges }: Term) => {
    for (const { field, range } of ranges) postings[field].unionInto(bits, range);
  };
  /** Zeroes what `addTerm` set, through the same lists. */
  const clearTerm = (bits: DocBits, { ranges }: Term) => {
    for (const { field, range } of ranges) postings[field].clearFrom(bits, range);
  };

  // A search's sets (N / 8 bytes each, a few a search) are taken from here and given back once it
  // is answered: made anew, they were megabytes of garbage a second at a million books. A set
  // taken to be a copy of another is not cleared first.
  const spare: DocBits[] = [];
  const take = (copyOf?: DocBits) => {
    const bits = spare.pop() ?? docBits(books);
    return copyOf ? (bits.set(copyOf), bits) : bits.fill(0);
  };

  // The books of a term whose words list many (a common word of comments, a lone "a"), over the
  // same fields, and how many they are: a common word comes back in many searches, and its set then
  // costs one pass, or none when it is searched alone.
  const kept = new Map<string, { set: DocBits; count: number }>();
  const isKept = (term: Term) => term.cost > books * KEPT_UNION_SHARE;
  const keptSet = (term: Term) => {
    let entry = kept.get(term.key);
    if (entry) {
      kept.delete(term.key);
    } else {
      let set: DocBits;
      if (kept.size >= KEPT_UNIONS) {
        const [oldest, reused] = kept.entries().next().value!;
        kept.delete(oldest);
        set = reused.set.fill(0);
      } else set = docBits(books);
      addTerm(set, term);
      entry = { set, count: countDocs(set) };
    }
    kept.set(term.key, entry);
    return entry;
  };

  /** The books that have every term: a set to give back to `spare`. */
  const matching = (terms: readonly Term[]) => {
    let matches: DocBits | undefined;
    for (const term of terms) {
      if (isKept(term)) {
        const { set } = keptSet(term);
        if (matches) intersectInto(matches, set);
        else matches = take(set);
      } else if (!matches) addTerm((matches = take()), term);
      else {
        const bits = take();
        addTerm(bits, term);
        intersectInto(matches, bits);
        spare.push(bits);
      }
    }
    return matches ?? take();
  };

  // One set of a bit per book, all zero between searches: the sparse path sets and clears only its books' integers.
  const scratch = docBits(books);

  /**
   * The books that have every term, in catalogue order, found from the lists of the terms' words
   * when the rarest term's are few (SPARSE_SHARE) and so are those of the terms it has to union
   * (UNIONED_SHARE); undefined otherwise. The rarest term's books are the candidates; a kept term
   * (a common word) keeps those its kept set holds, and each other term's books, set in `scratch`,
   * keep those they hold, `scratch` then cleared again through the same lists.
   */
  const sparseMatching = (terms: readonly Term[]): number[] | undefined => {
    if (terms.length === 0) return undefined;
    const rarest = terms.reduce((least, term) => (term.cost < least.cost ? term : least));
    const others = terms.filter((term) => term !== rarest);
    const unioned = others.filter((term) => !isKept(term));
    if (rarest.cost > books * SPARSE_SHARE || unioned.reduce((sum, { cost }) => sum + cost, 0) > books * UNIONED_SHARE) return undefined;
    let candidates: number[] = [];
    if (rarest.cost > books / SORTED_SHARE) {
      // Many: set in `scratch` and read back in catalogue order in one pass of N / 32 integers,
      // where sorting them cost more.
      addTerm(scratch, rarest);
      candidates = docsOf(scratch);
      clearTerm(scratch, rarest);
    } else {
      for (const { field, range } of rarest.ranges) {
        postings[field].forEachDoc(range, (doc) => {
          if (hasDoc(scratch, doc)) return;
          addDoc(scratch, doc);
          candidates.push(doc);
        });
      }
      for (const doc of candidates) scratch[doc >>> 5] = 0;
      candidates.sort((a, b) => a - b);
    }
    for (const term of others) {
      if (candidates.length === 0) break;
      if (isKept(term)) {
        const { set } = keptSet(term);
        candidates = candidates.filter((doc) => hasDoc(set, doc));
        continue;
      }
      addTerm(scratch, term);
      candidates = candidates.filter((doc) => hasDoc(scratch, doc));
      clearTerm(scratch, term);
    }
    return candidates;
  };

  /**
   * The page of `docs`, ranked: one number a match, ordered as the tiers are (outside the title's
   * matches, title length, catalogue order). Filled in a loop: `Float64Array.from` with a function
   * cost as much as the sort.
   */
  const rankedPage = (docs: readonly number[], titled: DocBits | undefined, { from, size }: IndexQuery) => {
    const keys = new Float64Array(docs.length);
    for (let n = 0; n < docs.length; n++) {
      const doc = docs[n]!;
      keys[n] = (titled && !hasDoc(titled, doc) ? 2 ** 52 : 0) + titleWords[doc]! * 2 ** 32 + doc;
    }
    return Array.from(pageOfKeys(keys, from, size), (key) => seqs[key % 2 ** 32]!);
  };

  /** The total of the sparse path's matches and its page, ranked as `ranked` ranks the bit set's. */
  const rankedDocs = (query: IndexQuery, terms: readonly Term[], identified: readonly number[], found: number[]) => {
    const inFound = new Set(found);
    const extra = [...new Set(identified.map(docOf))].filter((doc) => doc >= 0 && !inFound.has(doc));
    let matches = extra.length === 0 ? found : [...found, ...extra].sort((a, b) => a - b);
    if (query.format !== '') {
      const formatBits = byFormat[BOOK_FORMATS.indexOf(query.format)]!;
      matches = matches.filter((doc) => hasDoc(formatBits, doc));
    }
    const total = matches.length;
    if (total <= query.from) return { total, seqs: [] };
    if (total > RANKED_MATCH_LIMIT) {
      return { total, seqs: matches.slice(-(query.from + query.size), total - query.from).reverse().map((doc) => seqs[doc]!) };
    }
    if (!ranksTitleMatchesFirst(query)) return { total, seqs: rankedPage(matches, undefined, query) };
    const titleTerms = overTitle(terms);
    const titled = sparseMatching(titleTerms);
    if (!titled) {
      // A common word of the fields is not always kept over the title alone, and then unioned.
      const titledBits = matching(titleTerms);
      const page = rankedPage(matches, titledBits, query);
      spare.push(titledBits);
      return { total, seqs: page };
    }
    for (const doc of titled) addDoc(scratch, doc);
    const page = rankedPage(matches, scratch, query);
    for (const doc of titled) scratch[doc >>> 5] = 0;
    return { total, seqs: page };
  };

  const docOf = (seq: number) => {
    let low = 0;
    let high = books;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (seqs[middle]! < seq) low = middle + 1;
      else high = middle;
    }
    return low < books && seqs[low] === seq ? low : -1;
  };

  /** The total of `matches` and its page, ranked. */
  const ranked = (query: IndexQuery, terms: readonly Term[], identified: readonly number[], matches: DocBits) => {
    for (const seq of identified) {
      const doc = docOf(seq);
      if (doc >= 0) addDoc(matches, doc);
    }
    if (query.format !== '') intersectInto(matches, byFormat[BOOK_FORMATS.indexOf(query.format)]!);
    return pageOf(query, terms, matches, countDocs(matches));
  };

  /** The page of `matches`, `total` books, ranked: `matches` is only read. */
  const pageOf = (query: IndexQuery, terms: readonly Term[], matches: DocBits, total: number) => {
    if (total <= query.from) return { total, seqs: [] };
    if (total > RANKED_MATCH_LIMIT) {
      return { total, seqs: lastDocsOf(matches, query.from, query.size).map((doc) => seqs[doc]!) };
    }
    const titled = ranksTitleMatchesFirst(query) ? matching(overTitle(terms)) : undefined;
    const page = rankedPage(docsOf(matches), titled, query);
    if (titled) spare.push(titled);
    return { total, seqs: page };
  };

  return {
    books,
    search(query, identified) {
      const terms = termsOf(query.terms, query.fields);
      const found = sparseMatching(terms);
      if (found) return rankedDocs(query, terms, identified, found);
      if (terms.length === 1 && isKept(terms[0]!) && identified.length === 0 && query.format === '') {
        // A common word alone: its kept set and count are the answer, read where they are. The
        // title's set that ranking may take evicts the oldest kept set, never this one, the newest.
        const { set, count } = keptSet(terms[0]!);
        return pageOf(query, terms, set, count);
      }
      const matches = matching(terms);
      try {
        return ranked(query, terms, identified, matches);
      } finally {
        spare.push(matches);
      }
    },
  };
}
