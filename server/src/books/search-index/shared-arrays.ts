import type { TypedArray } from './growable.ts';

type TypedArrayType<T extends TypedArray> = { new (buffer: SharedArrayBuffer): T; readonly BYTES_PER_ELEMENT: number };

/**
 * A built index's arrays live in shared memory: every searching thread then reads the one copy,
 * and the thread that built them can end, giving back all that building took (docs/book-search.md).
 */
export const sharedArray = <T extends TypedArray>(type: TypedArrayType<T>, length: number): T =>
  new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT));

/** A copy of `array` in shared memory. */
export function sharedCopy<T extends TypedArray>(array: T): T {
  const copy = sharedArray(array.constructor as TypedArrayType<T>, array.length);
  copy.set(array as never);
  return copy;
}
