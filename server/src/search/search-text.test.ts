import { describe, expect, it } from 'vitest';
import { FOLDING_EXAMPLES } from './folding-examples.ts';
import { foldDiacritics, searchTerms, searchWords } from './search-text.ts';

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

  it('folds the search keys the same way', () => {
    expect(searchTerms('KIRMIZI,Łódź,strasse')).toEqual(['kirmizi', 'lodz', 'strasse']);
  });
});
