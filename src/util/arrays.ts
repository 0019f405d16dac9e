/** Working arrays reused from call to call on hot paths: grown on demand, never shrunk. */

/** `a` if it has `size` entries or more, else a larger zeroed array (contents not kept). */
export function grownFloat(a: Float64Array, size: number): Float64Array {
  return a.length >= size ? a : new Float64Array(Math.max(size, 2 * a.length));
}

/** `a` if it has `size` entries or more, else a larger zeroed array (contents not kept). */
export function grownInt(a: Int32Array, size: number): Int32Array {
  return a.length >= size ? a : new Int32Array(Math.max(size, 2 * a.length));
}
