export type TypedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/**
 * The size from which glibc's malloc maps a block on its own (`npm start` fixes it: server-process.ts,
 * `SERVER_ENVIRONMENT`, which start-script.test.ts holds to this), and gives it back when it is freed.
 */
export const MAPPED_BYTES = 1 << 20;

/**
 * `array` with room for at least `length` items: the same one if it has it, else a copy a quarter
 * larger, so that what a built index leaves unused stays under a quarter of it. A copy goes
 * straight to the size malloc maps on its own: each smaller one was left in the building thread's
 * malloc arena, which glibc keeps after the thread ends (at a million books, 13 MB of the server
 * at rest). Pages never written cost nothing.
 */
export function withRoom<T extends TypedArray>(array: T, length: number): T {
  if (length <= array.length) return array;
  const mapped = MAPPED_BYTES / array.BYTES_PER_ELEMENT;
  const grown = new (array.constructor as new (length: number) => T)(Math.max(length, Math.ceil(array.length * 1.25), mapped));
  grown.set(array);
  return grown;
}
