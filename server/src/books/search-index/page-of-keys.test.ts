import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageOfKeys } from './page-of-keys.ts';

const sortedPage = (keys: number[], from: number, size: number) => [...keys].sort((a, b) => a - b).slice(from, from + size);

describe('a page of ranking keys', () => {
  it('is the page a full sort gives, near the top, deep, past the end and of ties', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { maxLength: 400 }),
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 40 }),
        (keys, from, size) => {
          expect([...pageOfKeys(Float64Array.from(keys), from, size)]).toEqual(sortedPage(keys, from, size));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps the smallest of keys that come largest first', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => 1000 - i);
    expect([...pageOfKeys(Float64Array.from(keys), 0, 10)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([...pageOfKeys(Float64Array.from(keys), 20, 10)]).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
  });
});
