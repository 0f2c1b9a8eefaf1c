import { withRoom } from './growable.ts';
import { sharedArray } from './shared-arrays.ts';

/** The sorted words' UTF-8 bytes end to end, and where each starts: what a thread is sent to read them. */
export type WordDictionaryData = { bytes: Uint8Array; offsets: Uint32Array };

/** The words of one field, sorted, with the range of those that start with a prefix. */
export type WordDictionary = {
  /** The sorted words' places from `first` to `last` (exclusive) whose word starts with `prefix`. */
  prefixRange(prefix: string): { first: number; last: number };
};

const encoder = new TextEncoder();

/**
 * The words sorted by their UTF-8 bytes and kept as those bytes end to end, with where each
 * starts: about a byte a letter and four bytes a word. As JavaScript strings in an array they cost
 * five times that (a header, padding and a pointer a word), and a catalogue's paths hold a word
 * of their own for every book (its id). `order[i]` is the id (the place in `words`) of the i-th
 * sorted word, for the caller to lay out what it keeps per word in the same order.
 */
export function sortedDictionary(words: readonly string[]): { data: WordDictionaryData; dictionary: WordDictionary; order: Int32Array } {
  let unsorted = new Uint8Array(1024);
  const starts = new Uint32Array(words.length + 1);
  let used = 0;
  for (const [id, word] of words.entries()) {
    unsorted = withRoom(unsorted, used + word.length * 3);
    used += encoder.encodeInto(word, unsorted.subarray(used)).written;
    starts[id + 1] = used;
  }
  const order = Int32Array.from(words.keys()).sort((a, b) => {
    const aEnd = starts[a + 1]!;
    const bEnd = starts[b + 1]!;
    for (let i = starts[a]!, j = starts[b]!; i < aEnd && j < bEnd; i++, j++) {
      if (unsorted[i] !== unsorted[j]) return unsorted[i]! - unsorted[j]!;
    }
    return aEnd - starts[a]! - (bEnd - starts[b]!);
  });
  const bytes = sharedArray(Uint8Array, used);
  const offsets = sharedArray(Uint32Array, words.length + 1);
  let at = 0;
  for (const [place, id] of order.entries()) {
    bytes.set(unsorted.subarray(starts[id]!, starts[id + 1]!), at);
    at += starts[id + 1]! - starts[id]!;
    offsets[place + 1] = at;
  }
  const data = { bytes, offsets };
  return { order, data, dictionary: wordDictionary(data) };
}

/** The reader of a sorted dictionary: a function of its own, so that it keeps none of what sorting needed. */
export function wordDictionary({ bytes, offsets }: WordDictionaryData): WordDictionary {
  const count = offsets.length - 1;
  /** Below zero when the word at `place` sorts before every word starting with `prefix`, zero when it starts with it, above zero after. */
  const against = (place: number, prefix: Uint8Array) => {
    const end = offsets[place + 1]!;
    for (let k = 0, i = offsets[place]!; k < prefix.length; k++, i++) {
      if (i === end) return -1;
      if (bytes[i] !== prefix[k]) return bytes[i]! - prefix[k]!;
    }
    return 0;
  };
  /** The first place from which `above(place)` holds to the end. */
  const firstWhere = (above: (place: number) => boolean) => {
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (above(middle)) high = middle;
      else low = middle + 1;
    }
    return low;
  };

  return {
    prefixRange(prefix) {
      const encoded = encoder.encode(prefix);
      return {
        first: firstWhere((place) => against(place, encoded) >= 0),
        last: firstWhere((place) => against(place, encoded) > 0),
      };
    },
  };
}
