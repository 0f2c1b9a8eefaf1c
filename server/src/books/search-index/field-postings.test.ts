import { describe, expect, it } from 'vitest';
import { random } from '../../../../bench/books/generate-catalogue.ts';
import { countDocs, docBits, docsOf } from './doc-bits.ts';
import { fieldPostings, fieldPostingsBuilder } from './field-postings.ts';

const SEGMENT = 65_536;
const BOOKS = 3 * SEGMENT;
/**
 * A segment's books of a word as each kind of container holds them: one book, lists either side of
 * where they are packed (48), packed lists up to the bitmaps' 4,096, and bitmaps past it.
 */
const SIZES = [1, 2, 47, 48, 49, 255, 256, 257, 1000, 4095, 4096, 4097, 30_000];

/** `count` books of a segment with offsets from `low` to `high`, in order, with both ends whenever there is room. */
function booksOfSegment(r: ReturnType<typeof random>, segment: number, count: number, low = 0, high = SEGMENT - 1) {
  const chosen = new Set<number>(count >= 2 ? [low, high] : []);
  while (chosen.size < count) chosen.add(low + r.int(high - low + 1));
  return [...chosen].sort((a, b) => a - b).map((offset) => segment * SEGMENT + offset);
}

describe("a field's books of each word", () => {
  const r = random(21);
  const words = new Map<string, number[]>();
  for (const size of SIZES) {
    // In the first and the last segment, none in the middle one.
    words.set(`size${size}x`, [...booksOfSegment(r, 0, size), ...booksOfSegment(r, 2, size)]);
  }
  // Every book under one high byte: the first 256 books of a segment, and the last.
  for (const size of [48, 100, 256]) {
    words.set(`firsthigh${size}x`, booksOfSegment(r, 1, size, 0, 255));
    words.set(`lasthigh${size}x`, booksOfSegment(r, 1, size, SEGMENT - 256));
  }
  const byBook = new Map<number, string[]>();
  for (const [word, books] of words) for (const book of books) byBook.set(book, [...(byBook.get(book) ?? []), word]);
  const builder = fieldPostingsBuilder();
  for (let book = 0; book < BOOKS; book++) builder.add(book, byBook.get(book) ?? []);
  const data = builder.finish();
  const postings = fieldPostings(data);

  it.each([...words.keys()])('gives back exactly the books of %s, in order, from each of its walks', (word) => {
    const expected = words.get(word)!;
    const range = postings.prefixRange(word);
    expect(postings.postingsIn(range)).toBe(expected.length);
    const visited: number[] = [];
    postings.forEachDoc(range, (book) => visited.push(book));
    expect(visited).toEqual(expected);
    const bits = docBits(BOOKS);
    postings.unionInto(bits, range);
    expect(docsOf(bits)).toEqual(expected);
    postings.clearFrom(bits, range);
    expect(countDocs(bits)).toBe(0);
  });

  it('unions every word a prefix names', () => {
    const bits = docBits(BOOKS);
    postings.unionInto(bits, postings.prefixRange('size'));
    const expected = new Set(SIZES.flatMap((size) => words.get(`size${size}x`)!));
    expect(docsOf(bits)).toEqual([...expected].sort((a, b) => a - b));
  });

  it('packs the lists of 48 books and more, in less than two bytes a book', () => {
    const packedBytes = data.packed.reduce((sum, segment) => sum + segment.byteLength, 0);
    const listedBytes = data.lists.reduce((sum, segment) => sum + segment.byteLength, 0);
    // Lists of 2 and 47 books in two segments.
    expect(listedBytes).toBe(2 * 2 * (2 + 47));
    const packedBooks = [...words.values()].flatMap((books) =>
      [0, 1, 2].map((segment) => books.filter((book) => Math.floor(book / SEGMENT) === segment).length),
    ).filter((count) => count >= 48 && count <= 4096);
    const total = packedBooks.reduce((sum, count) => sum + count, 0);
    expect(packedBytes).toBeLessThan(2 * total);
    expect(packedBytes).toBeGreaterThan(total);
  });
});
