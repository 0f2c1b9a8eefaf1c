import type { DocBits } from './doc-bits.ts';
import { withRoom } from './growable.ts';

/**
 * The books of each word of one field, kept as Roaring bitmaps keep them (Chambi, Lemire et al.,
 * 2016): the catalogue cut into segments of 65,536 books, and a word's books in a segment either a
 * sorted list of 16-bit offsets (two bytes a book) or, when it has more than 4,096 there, a bitmap
 * of the segment (8 KB). A rare word costs two bytes a book, and the few words that are in nearly
 * every book cost an eighth of a byte each and are unioned a whole integer at a time.
 */
const SEGMENT_BITS = 16;
const SEGMENT = 1 << SEGMENT_BITS;
const BITMAP_WORDS = SEGMENT >>> 5;
const LIST_LIMIT = 4096;

export type FieldPostings = {
  /** The words' ids from `first` to `last` (exclusive) whose word starts with `prefix`. */
  prefixRange(prefix: string): { first: number; last: number };
  /** How many books the words of the range have, counted once a word (what their union costs). */
  postingsIn(range: { first: number; last: number }): number;
  /** Adds the books of the words of the range to `bits`. */
  unionInto(bits: DocBits, range: { first: number; last: number }): void;
};

/**
 * Built a book at a time in catalogue order: a segment's (word, book) pairs are collected and, when
 * the segment is full, laid out word by word (a counting sort), so that building holds one segment's
 * pairs beside what is built.
 */
export function fieldPostingsBuilder() {
  const ids = new Map<string, number>();
  const words: string[] = [];
  let lastDoc = new Int32Array(1024).fill(-1);
  let books = new Uint32Array(1024);
  let first = new Int32Array(1024).fill(-1);
  let latest = new Int32Array(1024);
  // Containers: which segment, how many books, where (list offset, or bitmap offset when over the limit), the word's next.
  let containerSegment = new Uint32Array(1024);
  let containerCount = new Uint32Array(1024);
  let containerAt = new Uint32Array(1024);
  let containerNext = new Int32Array(1024);
  let containers = 0;
  // Each segment's lists and bitmaps, allocated at their exact size when the segment is laid out.
  const lists: Uint16Array[] = [];
  const bitmaps: Uint32Array[] = [];
  let pairWords = new Uint32Array(1 << 16);
  let pairDocs = new Uint16Array(1 << 16);
  let pairs = 0;
  let segment = 0;
  let counts = new Uint32Array(1024);
  // Where the word's next book of the segment goes: a list offset, or −1 − container for a bitmap.
  let place = new Int32Array(1024);

  const wordId = (word: string) => {
    let id = ids.get(word);
    if (id === undefined) {
      id = words.length;
      ids.set(word, id);
      words.push(word);
      if (id >= lastDoc.length) {
        const size = lastDoc.length;
        lastDoc = withRoom(lastDoc, id + 1);
        lastDoc.fill(-1, size);
        books = withRoom(books, id + 1);
        first = withRoom(first, id + 1);
        first.fill(-1, size);
        latest = withRoom(latest, id + 1);
        counts = withRoom(counts, id + 1);
        place = withRoom(place, id + 1);
      }
    }
    return id;
  };

  const flush = () => {
    const touched: number[] = [];
    for (let i = 0; i < pairs; i++) {
      const id = pairWords[i]!;
      if (counts[id] === 0) touched.push(id);
      counts[id]! += 1;
    }
    let listsUsed = 0;
    let bitmapsUsed = 0;
    for (const id of touched) {
      if (counts[id]! > LIST_LIMIT) bitmapsUsed += BITMAP_WORDS;
      else listsUsed += counts[id]!;
    }
    const segmentLists = (lists[segment] = new Uint16Array(listsUsed));
    const segmentBitmaps = (bitmaps[segment] = new Uint32Array(bitmapsUsed));
    listsUsed = 0;
    bitmapsUsed = 0;
    for (const id of touched) {
      const count = counts[id]!;
      const container = containers++;
      containerSegment = withRoom(containerSegment, containers);
      containerCount = withRoom(containerCount, containers);
      containerAt = withRoom(containerAt, containers);
      containerNext = withRoom(containerNext, containers);
      containerSegment[container] = segment;
      containerCount[container] = count;
      containerNext[container] = -1;
      if (count > LIST_LIMIT) {
        containerAt[container] = bitmapsUsed;
        bitmapsUsed += BITMAP_WORDS;
        place[id] = -1 - container;
      } else {
        containerAt[container] = listsUsed;
        place[id] = listsUsed;
        listsUsed += count;
      }
      if (first[id] === -1) first[id] = container;
      else containerNext[latest[id]!] = container;
      latest[id] = container;
      books[id]! += count;
      counts[id] = 0;
    }
    for (let i = 0; i < pairs; i++) {
      const id = pairWords[i]!;
      const at = place[id]!;
      const doc = pairDocs[i]!;
      if (at < 0) segmentBitmaps[containerAt[-1 - at]! + (doc >>> 5)]! |= 1 << (doc & 31);
      else {
        segmentLists[at] = doc;
        place[id] = at + 1;
      }
    }
    pairs = 0;
  };

  return {
    /** The book after the last one added, with its words (repeats are counted once). */
    add(doc: number, bookWords: Iterable<string>) {
      const bookSegment = doc >>> SEGMENT_BITS;
      if (bookSegment !== segment) {
        flush();
        segment = bookSegment;
      }
      for (const word of bookWords) {
        const id = wordId(word);
        if (lastDoc[id] === doc) continue;
        lastDoc[id] = doc;
        pairWords = withRoom(pairWords, pairs + 1);
        pairDocs = withRoom(pairDocs, pairs + 1);
        pairWords[pairs] = id;
        pairDocs[pairs] = doc & (SEGMENT - 1);
        pairs += 1;
      }
    },

    finish(): FieldPostings {
      flush();
      // The reader's functions share this scope: what only building needs is let go of.
      pairWords = new Uint32Array(0);
      pairDocs = new Uint16Array(0);
      lastDoc = new Int32Array(0);
      counts = new Uint32Array(0);
      place = new Int32Array(0);
      const order = Int32Array.from(words.keys()).sort((a, b) => (words[a]! < words[b]! ? -1 : words[a]! > words[b]! ? 1 : 0));
      const sorted = Array.from(order, (id) => words[id]!);
      ids.clear();
      words.length = 0;
      const lowerBound = (text: string) => {
        let low = 0;
        let high = sorted.length;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if (sorted[middle]! < text) low = middle + 1;
          else high = middle;
        }
        return low;
      };
      return {
        prefixRange(prefix) {
          return { first: lowerBound(prefix), last: lowerBound(`${prefix}\uffff`) };
        },

        postingsIn({ first: from, last }) {
          let total = 0;
          for (let i = from; i < last; i++) total += books[order[i]!]!;
          return total;
        },

        unionInto(bits, { first: from, last }) {
          for (let i = from; i < last; i++) {
            for (let container = first[order[i]!]!; container !== -1; container = containerNext[container]!) {
              const segmentOf = containerSegment[container]!;
              const base = segmentOf << SEGMENT_BITS;
              const at = containerAt[container]!;
              const count = containerCount[container]!;
              if (count > LIST_LIMIT) {
                const word = base >>> 5;
                const end = Math.min(BITMAP_WORDS, bits.length - word);
                const bitmap = bitmaps[segmentOf]!;
                for (let j = 0; j < end; j++) bits[word + j]! |= bitmap[at + j]!;
              } else {
                const list = lists[segmentOf]!;
                for (let j = at; j < at + count; j++) {
                  const doc = base + list[j]!;
                  bits[doc >>> 5]! |= 1 << (doc & 31);
                }
              }
            }
          }
        },
      };
    },
  };
}
