/**
 * Tight EASY backfilling in plain TypeScript: bench/reference/easy.c line for
 * line (same rules, same data structures: a min-heap of running jobs by actual
 * end, an array of them sorted by estimated end, a linear queue scan), on
 * typed arrays, with no event core and no policy interface. bench/batch.ts
 * times it in the same run as the C program and schedlab's EASY: the ratio of
 * schedlab to this one is what the engine and the policy interface cost in
 * the same language; the ratio to C adds the language.
 *
 * Jobs are given sorted by submit time; returns each one's start time.
 */
export function easyReference(sub: Float64Array, run: Float64Array, procs: Int32Array, est: Float64Array, machineSize: number): Float64Array {
  const n = sub.length;
  const start = new Float64Array(n);
  const heap = new Int32Array(n);
  const byEst = new Int32Array(n);
  const queue = new Int32Array(n);
  const started = new Uint8Array(n);
  let hn = 0;
  let rn = 0;
  const endOf = (i: number) => start[i] + run[i];
  const hpush = (i: number) => {
    let c = hn++;
    const e = endOf(i);
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (endOf(heap[p]) <= e) break;
      heap[c] = heap[p];
      c = p;
    }
    heap[c] = i;
  };
  const hpop = () => {
    const top = heap[0];
    const last = heap[--hn];
    const e = endOf(last);
    let c = 0;
    for (;;) {
      let m = 2 * c + 1;
      if (m >= hn) break;
      if (m + 1 < hn && endOf(heap[m + 1]) < endOf(heap[m])) m++;
      if (endOf(heap[m]) >= e) break;
      heap[c] = heap[m];
      c = m;
    }
    if (hn > 0) heap[c] = last;
    return top;
  };
  const rinsert = (i: number) => {
    const e = start[i] + est[i];
    let k = rn++;
    while (k > 0 && start[byEst[k - 1]] + est[byEst[k - 1]] > e) {
      byEst[k] = byEst[k - 1];
      k--;
    }
    byEst[k] = i;
  };
  const rremove = (i: number) => {
    let k = 0;
    while (byEst[k] !== i) k++;
    for (; k + 1 < rn; k++) byEst[k] = byEst[k + 1];
    rn--;
  };
  const begin = (i: number, now: number) => {
    started[i] = 1;
    start[i] = now;
    hpush(i);
    rinsert(i);
  };

  let qh = 0;
  let qn = 0;
  let next = 0;
  let free = machineSize;
  while (next < n || hn > 0) {
    let now = next < n ? sub[next] : endOf(heap[0]);
    if (hn > 0 && endOf(heap[0]) < now) now = endOf(heap[0]);
    while (hn > 0 && endOf(heap[0]) === now) {
      const i = hpop();
      free += procs[i];
      rremove(i);
    }
    while (next < n && sub[next] === now) queue[qn++] = next++;
    // FCFS part
    while (qh < qn && (started[queue[qh]] || procs[queue[qh]] <= free)) {
      const i = queue[qh++];
      if (started[i]) continue;
      free -= procs[i];
      begin(i, now);
    }
    if (qh === qn || free === 0) continue;
    // EASY: shadow time and extra processors for the head
    const head = queue[qh];
    let avail = free;
    let extra = 0;
    let shadow = -1;
    for (let k = 0; k < rn; k++) {
      avail += procs[byEst[k]];
      if (avail >= procs[head]) {
        while (k + 1 < rn && start[byEst[k + 1]] + est[byEst[k + 1]] === start[byEst[k]] + est[byEst[k]]) avail += procs[byEst[++k]];
        const e = start[byEst[k]] + est[byEst[k]];
        shadow = e > now ? e : now;
        extra = avail - procs[head];
        break;
      }
    }
    for (let k = qh + 1; k < qn && free > 0; k++) {
      const i = queue[k];
      if (started[i] || procs[i] > free) continue;
      const ends = now + est[i] <= shadow;
      if (!ends && procs[i] > extra) continue;
      if (!ends) extra -= procs[i];
      free -= procs[i];
      begin(i, now);
    }
  }
  return start;
}
