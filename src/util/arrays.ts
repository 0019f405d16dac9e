/** Working arrays reused from call to call on hot paths: grown on demand, never shrunk. */

/** `a` if it has `size` entries or more, else a larger zeroed array (contents not kept). */
export function grownFloat(a: Float64Array, size: number): Float64Array {
  return a.length >= size ? a : new Float64Array(Math.max(size, 2 * a.length));
}

/** `a` if it has `size` entries or more, else a larger zeroed array (contents not kept). */
export function grownInt(a: Int32Array, size: number): Int32Array {
  return a.length >= size ? a : new Int32Array(Math.max(size, 2 * a.length));
}

/** `a` if it has `size` entries or more, else a larger array starting with `a`'s entries (the rest zero). */
export function enlarged<T extends Float64Array | Int32Array>(a: T, size: number): T {
  if (a.length >= size) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(size, 2 * a.length));
  b.set(a);
  return b;
}
