import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortedDictionary } from './word-dictionary.ts';

/** Letters of one, two, three and four UTF-8 bytes, and those on both sides of the surrogates. */
const LETTERS = ['a', 'b', 'z', 'é', 'ö', 'в', 'о', 'й', 'λ', '中', '\ue000', '\uffef', '𠀀', '𝔸'];

const names = (words: string[], order: Int32Array, { first, last }: { first: number; last: number }) =>
  Array.from(order.subarray(first, last), (id) => words[id]!).sort();

describe('the sorted word dictionary', () => {
  it('finds exactly the words that start with a prefix, whatever their scripts', () => {
    const word = fc.array(fc.constantFrom(...LETTERS), { minLength: 1, maxLength: 4 }).map((letters) => letters.join(''));
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 60 }), fc.array(word, { minLength: 1, maxLength: 10 }), (words, prefixes) => {
        const { dictionary, order } = sortedDictionary(words);
        for (const prefix of [...prefixes, ...words]) {
          expect(names(words, order, dictionary.prefixRange(prefix))).toEqual(words.filter((w) => w.startsWith(prefix)).sort());
        }
      }),
      { seed: 16, numRuns: 300 },
    );
  });

  it('finds the longer numbers that start with a number, as a catalogue\'s ids in its paths', () => {
    const words = Array.from({ length: 100_000 }, (_, n) => String(n + 1));
    const { dictionary, order } = sortedDictionary(words);
    expect(names(words, order, dictionary.prefixRange('9999'))).toEqual(['9999', '99990', '99991', '99992', '99993', '99994', '99995', '99996', '99997', '99998', '99999']);
    expect(dictionary.prefixRange('0')).toEqual({ first: 0, last: 0 });
  });
});
