/**
 * Binary min-heap with a caller-supplied comparison. Used for the event queue
 * and anywhere an ordered frontier is needed.
 */
export class BinaryHeap<T> {
  private items: T[] = [];

  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const a = this.items;
    // Sift up by moving parents into the hole (no swaps, no temporaries).
    let i = a.length;
    a.push(item);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(item, a[p])) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = item;
  }

  pop(): T | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop() as T;
    const n = a.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const m = l + 1 < n && this.less(a[l + 1], a[l]) ? l + 1 : l;
        if (!this.less(a[m], last)) break;
        a[i] = a[m];
        i = m;
      }
      a[i] = last;
    }
    return top;
  }

  toArray(): T[] {
    return this.items.slice();
  }
}
