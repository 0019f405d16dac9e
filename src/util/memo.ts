/**
 * `f` remembered per input array: called again only for an array it has not
 * seen, or one whose length changed since (so an element pushed onto a
 * remembered array is not missed; in-place replacement of an element is).
 * Arrays are held weakly: a dropped array drops its result.
 */
export function memoizeByArray<A extends readonly unknown[], T>(f: (xs: A) => T): (xs: A) => T {
  const memo = new WeakMap<A, { length: number; value: T }>();
  return (xs) => {
    let hit = memo.get(xs);
    if (!hit || hit.length !== xs.length) memo.set(xs, (hit = { length: xs.length, value: f(xs) }));
    return hit.value;
  };
}
