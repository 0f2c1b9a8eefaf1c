import type { DocBits } from './doc-bits.ts';
import { withRoom } from './growable.ts';
import { sharedArray } from './shared-arrays.ts';
import { sortedDictionary, wordDictionary, type WordDictionaryData } from './word-dictionary.ts';

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
/**
 * From this many books in a segment, a word's list is packed (Elias and Fano's code, with a byte
 * for each offset's low half): each offset's low byte, and its high byte as a bit set at
 * `high + n` for its n-th book, so `count + 255` bits for them all, each part in whole 32-bit
 * words. From 46 books on that is less than two bytes a book (1.125 bytes and about 40 over): a
 * list of 48 takes 8% less, one of 200 35%, one of 4,096 43%. Comments are where it counts: most
 * of their listed (word, book) pairs are in lists of 64 books or more.
 */
const PACKED_FROM = 48;
/** The 32-bit words of a packed list's high bits, which its low bytes follow. */
const highWords = (count: number) => (count + 255 + 31) >>> 5;
/** The 32-bit words of a packed list: its high bits, then its low bytes. */
const packedWords = (count: number) => highWords(count) + ((count + 3) >>> 2);

/**
 * A built field's arrays: its words, and each word's containers from `containerStart[place]` to
 * `containerStart[place + 1]`, each its segment, its size less one (a segment's 65,536 books fit
 * in 16 bits) and where its list, packed list or bitmap starts; a container of one book holds the
 * book itself in `at`, with nothing in the lists. The words of a single book are apart (`single`):
 * each with its book and no container. In shared memory (shared-arrays.ts).
 */
export type FieldPostingsData = {
  words: WordDictionaryData;
  containerStart: Uint32Array;
  segments: Uint16Array;
  sizes: Uint16Array;
  at: Uint32Array;
  lists: Uint16Array[];
  packed: Uint32Array[];
  bitmaps: Uint32Array[];
  single: { words: WordDictionaryData; docs: Uint32Array };
};

/** The words of a field that start with a prefix: a run of the words with containers, and one of the words of a single book. */
export type WordRange = { first: number; last: number; firstSingle: number; lastSingle: number };

export const hasWords = (range: WordRange) => range.first < range.last || range.firstSingle < range.lastSingle;

export type FieldPostings = {
  /** The places in the sorted words of the words that start with `prefix`. */
  prefixRange(prefix: string): WordRange;
  /** How many books the words of the range have, counted once a word (what their union costs). */
  postingsIn(range: WordRange): number;
  /** Adds the books of the words of the range to `bits`. */
  unionInto(bits: DocBits, range: WordRange): void;
  /** Calls `visit` with each book of each word of the range: a book of several words comes several times. */
  forEachDoc(range: WordRange, visit: (doc: number) => void): void;
  /** Zeroes the integers of `bits` that hold a book of the range: what `unionInto` set, cleared for what the range costs. */
  clearFrom(bits: DocBits, range: WordRange): void;
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
  let first = new Int32Array(1024).fill(-1);
  let latest = new Int32Array(1024);
  // Containers: which segment, how many books, where (list offset, or bitmap offset when over the limit), the word's next.
  let containerSegment = new Uint32Array(1024);
  let containerCount = new Uint32Array(1024);
  let containerAt = new Uint32Array(1024);
  let containerNext = new Int32Array(1024);
  let containers = 0;
  // Each segment's lists, packed lists and bitmaps, allocated at their exact size when the segment is laid out.
  const lists: Uint16Array[] = [];
  const packed: Uint32Array[] = [];
  const bitmaps: Uint32Array[] = [];
  let pairWords = new Uint32Array(1 << 16);
  let pairDocs = new Uint16Array(1 << 16);
  let pairs = 0;
  let segment = 0;
  let counts = new Uint32Array(1024);
  // Where the word's next book of the segment goes: a list offset, or −1 − container for a bitmap, a
  // packed list (whose books so far are then counted in `counts`) or a single book.
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
    let packedUsed = 0;
    let bitmapsUsed = 0;
    for (const id of touched) {
      const count = counts[id]!;
      if (count > LIST_LIMIT) bitmapsUsed += BITMAP_WORDS;
      else if (count >= PACKED_FROM) packedUsed += packedWords(count);
      else if (count > 1) listsUsed += count;
    }
    const segmentLists = (lists[segment] = sharedArray(Uint16Array, listsUsed));
    const segmentPacked = (packed[segment] = sharedArray(Uint32Array, packedUsed));
    const segmentLowBytes = new Uint8Array(segmentPacked.buffer);
    const segmentBitmaps = (bitmaps[segment] = sharedArray(Uint32Array, bitmapsUsed));
    listsUsed = 0;
    packedUsed = 0;
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
      } else if (count >= PACKED_FROM) {
        containerAt[container] = packedUsed;
        packedUsed += packedWords(count);
        place[id] = -1 - container;
      } else if (count === 1) {
        place[id] = -1 - container;
      } else {
        containerAt[container] = listsUsed;
        place[id] = listsUsed;
        listsUsed += count;
      }
      if (first[id] === -1) first[id] = container;
      else containerNext[latest[id]!] = container;
      latest[id] = container;
      counts[id] = 0;
    }
    // A word's books come in catalogue order: the n-th of a packed list sets bit `high + n`.
    for (let i = 0; i < pairs; i++) {
      const id = pairWords[i]!;
      const at = place[id]!;
      const doc = pairDocs[i]!;
      if (at < 0) {
        const container = -1 - at;
        const count = containerCount[container]!;
        if (count === 1) containerAt[container] = doc;
        else if (count > LIST_LIMIT) segmentBitmaps[containerAt[container]! + (doc >>> 5)]! |= 1 << (doc & 31);
        else {
          const n = counts[id]!++;
          const bit = (doc >>> 8) + n;
          segmentPacked[containerAt[container]! + (bit >>> 5)]! |= 1 << (bit & 31);
          segmentLowBytes[(containerAt[container]! + highWords(count)) * 4 + n] = doc & 0xff;
        }
      } else {
        segmentLists[at] = doc;
        place[id] = at + 1;
      }
    }
    for (const id of touched) counts[id] = 0;
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

    finish(): FieldPostingsData {
      flush();
      // A word of a single book (a book's id in its path) costs its book alone, where a container
      // and its place cost three times that: at a million books, a million such words.
      const isSingle = (id: number) => containerNext[first[id]!] === -1 && containerCount[first[id]!] === 1;
      const singleIds: number[] = [];
      const sharedIds: number[] = [];
      for (let id = 0; id < words.length; id++) (isSingle(id) ? singleIds : sharedIds).push(id);
      const singles = sortedDictionary(singleIds.map((id) => words[id]!));
      const docs = sharedArray(Uint32Array, singleIds.length);
      for (const [sorted, place] of singles.order.entries()) {
        const container = first[singleIds[place]!]!;
        docs[sorted] = (containerSegment[container]! << SEGMENT_BITS) | containerAt[container]!;
      }
      const { data: sortedWords, order } = sortedDictionary(sharedIds.map((id) => words[id]!));
      // The containers laid out again in the words' order: a word's are then one run, found from
      // where it starts, with no chain from one to the next.
      const containerStart = sharedArray(Uint32Array, order.length + 1);
      const laidOut = containers - singleIds.length;
      const segments = sharedArray(Uint16Array, laidOut);
      const sizes = sharedArray(Uint16Array, laidOut);
      const at = sharedArray(Uint32Array, laidOut);
      let next = 0;
      for (const [sorted, place] of order.entries()) {
        for (let container = first[sharedIds[place]!]!; container !== -1; container = containerNext[container]!, next++) {
          segments[next] = containerSegment[container]!;
          sizes[next] = containerCount[container]! - 1;
          at[next] = containerAt[container]!;
        }
        containerStart[sorted + 1] = next;
      }
      // A builder kept after its index is built (a benchmark's) keeps none of what building needed.
      ids.clear();
      words.length = 0;
      lastDoc = first = latest = place = containerNext = new Int32Array(0);
      counts = containerSegment = containerCount = containerAt = pairWords = new Uint32Array(0);
      pairDocs = new Uint16Array(0);
      return { words: sortedWords, containerStart, segments, sizes, at, lists, packed, bitmaps, single: { words: singles.data, docs } };
    },
  };
}

/** The reader of a built field (a thread's own, over the shared arrays). */
export function fieldPostings({ words, containerStart, segments, sizes, at, lists, packed, bitmaps, single }: FieldPostingsData): FieldPostings {
  const dictionary = wordDictionary(words);
  const singleDictionary = wordDictionary(single.words);
  const singleDocs = single.docs;
  const lowBytes = packed.map((segment) => new Uint8Array(segment.buffer, segment.byteOffset, segment.byteLength));
  return {
    prefixRange(prefix) {
      const { first, last } = dictionary.prefixRange(prefix);
      const { first: firstSingle, last: lastSingle } = singleDictionary.prefixRange(prefix);
      return { first, last, firstSingle, lastSingle };
    },

    postingsIn({ first, last, firstSingle, lastSingle }) {
      let total = lastSingle - firstSingle;
      for (let container = containerStart[first]!; container < containerStart[last]!; container++) total += sizes[container]! + 1;
      return total;
    },

    // The three walks below are written out rather than shared through a callback: they are the
    // searches' inner loops, and a call a book cost more than the walk.
    forEachDoc({ first, last, firstSingle, lastSingle }, visit) {
      for (let container = containerStart[first]!; container < containerStart[last]!; container++) {
        const segment = segments[container]!;
        const base = segment << SEGMENT_BITS;
        const from = at[container]!;
        const count = sizes[container]! + 1;
        if (count > LIST_LIMIT) {
          const bitmap = bitmaps[segment]!;
          for (let j = 0; j < BITMAP_WORDS; j++) {
            for (let word = bitmap[from + j]!; word !== 0; word &= word - 1) visit(base + (j << 5) + (31 - Math.clz32(word & -word)));
          }
        } else if (count >= PACKED_FROM) {
          const highs = packed[segment]!;
          const lows = lowBytes[segment]!;
          const low = (from + highWords(count)) * 4;
          for (let j = 0, n = 0; n < count; j++) {
            for (let word = highs[from + j]!; word !== 0; word &= word - 1, n++) {
              visit(base + ((((j << 5) + (31 - Math.clz32(word & -word)) - n) << 8) | lows[low + n]!));
            }
          }
        } else if (count === 1) visit(base + from);
        else {
          const list = lists[segment]!;
          for (let j = from; j < from + count; j++) visit(base + list[j]!);
        }
      }
      for (let place = firstSingle; place < lastSingle; place++) visit(singleDocs[place]!);
    },

    clearFrom(bits, { first, last, firstSingle, lastSingle }) {
      for (let container = containerStart[first]!; container < containerStart[last]!; container++) {
        const segment = segments[container]!;
        const base = segment << SEGMENT_BITS;
        const from = at[container]!;
        const count = sizes[container]! + 1;
        if (count > LIST_LIMIT) bits.fill(0, base >>> 5, Math.min(bits.length, (base >>> 5) + BITMAP_WORDS));
        else if (count >= PACKED_FROM) {
          const highs = packed[segment]!;
          const lows = lowBytes[segment]!;
          const low = (from + highWords(count)) * 4;
          for (let j = 0, n = 0; n < count; j++) {
            for (let word = highs[from + j]!; word !== 0; word &= word - 1, n++) {
              bits[(base + ((((j << 5) + (31 - Math.clz32(word & -word)) - n) << 8) | lows[low + n]!)) >>> 5] = 0;
            }
          }
        } else if (count === 1) bits[(base + from) >>> 5] = 0;
        else {
          const list = lists[segment]!;
          for (let j = from; j < from + count; j++) bits[(base + list[j]!) >>> 5] = 0;
        }
      }
      for (let place = firstSingle; place < lastSingle; place++) bits[singleDocs[place]! >>> 5] = 0;
    },

    unionInto(bits, { first, last, firstSingle, lastSingle }) {
      for (let container = containerStart[first]!; container < containerStart[last]!; container++) {
        const segment = segments[container]!;
        const base = segment << SEGMENT_BITS;
        const from = at[container]!;
        const count = sizes[container]! + 1;
        if (count > LIST_LIMIT) {
          const word = base >>> 5;
          const end = Math.min(BITMAP_WORDS, bits.length - word);
          const bitmap = bitmaps[segment]!;
          for (let j = 0; j < end; j++) bits[word + j]! |= bitmap[from + j]!;
        } else if (count >= PACKED_FROM) {
          const highs = packed[segment]!;
          const lows = lowBytes[segment]!;
          const low = (from + highWords(count)) * 4;
          for (let j = 0, n = 0; n < count; j++) {
            for (let word = highs[from + j]!; word !== 0; word &= word - 1, n++) {
              const doc = base + ((((j << 5) + (31 - Math.clz32(word & -word)) - n) << 8) | lows[low + n]!);
              bits[doc >>> 5]! |= 1 << (doc & 31);
            }
          }
        } else if (count === 1) {
          const doc = base + from;
          bits[doc >>> 5]! |= 1 << (doc & 31);
        } else {
          const list = lists[segment]!;
          for (let j = from; j < from + count; j++) {
            const doc = base + list[j]!;
            bits[doc >>> 5]! |= 1 << (doc & 31);
          }
        }
      }
      for (let place = firstSingle; place < lastSingle; place++) {
        const doc = singleDocs[place]!;
        bits[doc >>> 5]! |= 1 << (doc & 31);
      }
    },
  };
}
