/**
 * Beyond this many keys a page is deep: each key kept costs a move of up to this many, and a sort
 * of them all is as cheap.
 */
const KEPT_KEYS = 64;

/**
 * The keys a sort of `keys` would put from `from` to `from + size`, in order. A page near the top
 * keeps only the smallest `from + size` in one pass: at 5,000 matches a sort took a millisecond, the
 * pass a twelfth of it. `keys` is sorted in place for a deep page.
 */
export function pageOfKeys(keys: Float64Array, from: number, size: number): Float64Array {
  const wanted = from + size;
  if (wanted > KEPT_KEYS) return keys.sort().subarray(from, wanted);
  const kept = new Float64Array(wanted);
  let held = 0;
  for (let n = 0; n < keys.length; n++) {
    const key = keys[n]!;
    if (held < wanted) held += 1;
    else if (key >= kept[held - 1]!) continue;
    let at = held - 1;
    for (; at > 0 && kept[at - 1]! > key; at--) kept[at] = kept[at - 1]!;
    kept[at] = key;
  }
  return kept.subarray(Math.min(from, held), held);
}
