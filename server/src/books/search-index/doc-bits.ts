/**
 * A set of books as one bit per book of the catalogue, in catalogue order: unions, intersections
 * and exact counts then cost a pass over N / 32 integers whatever the sets hold, which is what makes
 * a common word's count cheap (a million books are 31,250 integers).
 */
export type DocBits = Uint32Array;

/** A new set, all zero. */
export const docBits = (docs: number): DocBits => new Uint32Array((docs + 31) >>> 5);

export function bitCount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

export function countDocs(bits: DocBits): number {
  let count = 0;
  for (let i = 0; i < bits.length; i++) if (bits[i] !== 0) count += bitCount(bits[i]!);
  return count;
}

export const hasDoc = (bits: DocBits, doc: number) => (bits[doc >>> 5]! & (1 << (doc & 31))) !== 0;

export function addDoc(bits: DocBits, doc: number) {
  bits[doc >>> 5]! |= 1 << (doc & 31);
}

export function intersectInto(target: DocBits, other: DocBits) {
  for (let i = 0; i < target.length; i++) target[i]! &= other[i]!;
}

/** The books of the set in catalogue order, at most `limit`. */
export function docsOf(bits: DocBits, limit = Infinity): number[] {
  const docs: number[] = [];
  for (let i = 0; i < bits.length && docs.length < limit; i++) {
    for (let word = bits[i]!; word !== 0 && docs.length < limit; word &= word - 1) {
      docs.push((i << 5) + (31 - Math.clz32(word & -word)));
    }
  }
  return docs;
}

/** The books of the set in reverse catalogue order, the first `skip` passed over, at most `limit`. */
export function lastDocsOf(bits: DocBits, skip: number, limit: number): number[] {
  const docs: number[] = [];
  let i = bits.length - 1;
  for (; i >= 0; i--) {
    const count = bits[i] === 0 ? 0 : bitCount(bits[i]!);
    if (count > skip) break;
    skip -= count;
  }
  for (; i >= 0 && docs.length < limit; i--) {
    for (let word = bits[i]!; word !== 0 && docs.length < limit; ) {
      const high = 31 - Math.clz32(word);
      word &= ~(1 << high);
      if (skip > 0) skip -= 1;
      else docs.push((i << 5) + high);
    }
  }
  return docs;
}
