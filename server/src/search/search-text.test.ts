import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FOLDING_EXAMPLES } from './folding-examples.ts';
import { foldDiacritics, MAX_WORD_LENGTH, searchTerms, searchWords } from './search-text.ts';

describe('folding', () => {
  it.each(FOLDING_EXAMPLES)('reads %j and %j as one same word', (written, typed) => {
    expect(searchWords(typed)).toHaveLength(1);
    expect(searchWords(written)).toEqual(searchWords(typed));
    expect(searchWords(written.toUpperCase())).toEqual(searchWords(typed));
  });

  it('spells the Latin letters in ASCII, and leaves the letters of other scripts to NFKD alone', () => {
    for (const [written, typed] of FOLDING_EXAMPLES) {
      if (/^[a-z]+$/.test(typed)) expect(searchWords(written), written).toEqual([typed]);
    }
    expect(foldDiacritics('Война и мир, Ομήρου Ιλιάδα')).toBe('Воина и мир, Ομηρου Ιλιαδα');
  });

  it('spells a letter as letters only, so that words keep their bounds', () => {
    expect(searchWords('Große Straße, Łódź-Kaliska')).toEqual(['grosse', 'strasse', 'lodz', 'kaliska']);
    expect(foldDiacritics('ŉ')).toBe('ʼn');
  });

  it('leaves ASCII text as it is', () => {
    const text = 'Plain ASCII, with 1984 and C++';
    expect(foldDiacritics(text)).toBe(text);
  });

  it('folds a text as it folds the whole of it, a run of characters beyond ASCII at a time', () => {
    // The whole text's NFKD, its marks removed, its Latin letters beyond ASCII each folded alone.
    const foldedWhole = (text: string) =>
      text
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .replace(/[\p{Script=Latin}&&\p{L}&&\P{ASCII}]/gv, (letter) => foldDiacritics(letter));
    const pieces = fc.constantFrom('e', ' ', 'A', '\u0301', '\u0327', '\u0308', 'é', 'ł', 'ß', 'ﬁ', 'ŉ', '㍿', 'й', 'Ω', '\u0345', '𠀀', 'ǅ', 'x\u0323\u0307');
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ unit: 'binary' })), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(foldDiacritics(text)).toBe(foldedWhole(text));
        // Asked again, from the runs kept folded.
        expect(foldDiacritics(text)).toBe(foldedWhole(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('folds the search keys the same way', () => {
    expect(searchTerms('KIRMIZI,Łódź,strasse')).toEqual(['kirmizi', 'lodz', 'strasse']);
  });
});

describe('word cap', () => {
  it('keeps a word to its first 100 characters after folding, in whole characters', () => {
    expect(searchWords('㍿'.repeat(700))).toEqual(['株式会社'.repeat(25)]);
    const [capped] = searchWords(`${'a'.repeat(99)}${'𠀀'.repeat(5)} short`);
    expect(Array.from(capped ?? '')).toHaveLength(MAX_WORD_LENGTH);
    expect(capped?.endsWith('𠀀')).toBe(true);
    expect(searchWords(`${'b'.repeat(150)} short`)).toEqual(['b'.repeat(100), 'short']);
  });
});
