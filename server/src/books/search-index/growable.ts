export type TypedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/**
 * `array` with room for at least `length` items: the same one if it has it, else a copy a quarter
 * larger, so that what a built index leaves unused stays under a quarter of it.
 */
export function withRoom<T extends TypedArray>(array: T, length: number): T {
  if (length <= array.length) return array;
  const grown = new (array.constructor as new (length: number) => T)(Math.max(length, Math.ceil(array.length * 1.25), 64));
  grown.set(array);
  return grown;
}
