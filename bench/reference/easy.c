/*
 * Tight EASY backfilling in C: the anchor of bench/batch.ts (schedlab's EASY
 * is timed against it in the same run, and must give the same start time to
 * every job). Same rules as src/schedulers/batch/simulate.ts: at each
 * instant all completions and arrivals are applied, then one pass: start
 * from the queue head while it fits; reserve for the head at the shadow time
 * (every running job ending by then counts, ties included); backfill in queue
 * order any job that fits now and ends by the shadow time or uses only extra
 * processors.
 *
 * Input (stdin): "n machineSize" then n lines "submit runtime procs estimate",
 * sorted by submit. Output (stdout): n start times, then on stderr the
 * simulation time in seconds (reading and writing excluded).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double *sub, *run, *est, *start;
static long *procs;

/* Running jobs: min-heap on actual end (what happens) ... */
static long *heap;
static long hn;
static double endOf(long i) { return start[i] + run[i]; }
static void hpush(long i) {
  long c = hn++;
  while (c > 0) {
    long p = (c - 1) / 2;
    if (endOf(heap[p]) <= endOf(i)) break;
    heap[c] = heap[p];
    c = p;
  }
  heap[c] = i;
}
static long hpop(void) {
  long top = heap[0], last = heap[--hn], c = 0;
  for (;;) {
    long m = 2 * c + 1;
    if (m >= hn) break;
    if (m + 1 < hn && endOf(heap[m + 1]) < endOf(heap[m])) m++;
    if (endOf(heap[m]) >= endOf(last)) break;
    heap[c] = heap[m];
    c = m;
  }
  if (hn > 0) heap[c] = last;
  return top;
}
/* ... and an array sorted by estimated end (what the scheduler believes). */
static long *byEst;
static long rn;
static void rinsert(long i) {
  double e = start[i] + est[i];
  long k = rn++;
  while (k > 0 && start[byEst[k - 1]] + est[byEst[k - 1]] > e) { byEst[k] = byEst[k - 1]; k--; }
  byEst[k] = i;
}
static void rremove(long i) {
  long k = 0;
  while (byEst[k] != i) k++;
  for (; k + 1 < rn; k++) byEst[k] = byEst[k + 1];
  rn--;
}

int main(void) {
  long n, M;
  if (scanf("%ld %ld", &n, &M) != 2) return 2;
  sub = malloc(n * sizeof *sub); run = malloc(n * sizeof *run); est = malloc(n * sizeof *est);
  start = malloc(n * sizeof *start); procs = malloc(n * sizeof *procs);
  heap = malloc(n * sizeof *heap); byEst = malloc(n * sizeof *byEst);
  long *queue = malloc(n * sizeof *queue);
  char *started = calloc(n, 1);
  for (long i = 0; i < n; i++)
    if (scanf("%lf %lf %ld %lf", &sub[i], &run[i], &procs[i], &est[i]) != 4) return 2;

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long qh = 0, qn = 0, next = 0, free = M;
  while (next < n || hn > 0) {
    double now = next < n ? sub[next] : endOf(heap[0]);
    if (hn > 0 && endOf(heap[0]) < now) now = endOf(heap[0]);
    while (hn > 0 && endOf(heap[0]) == now) {
      long i = hpop();
      free += procs[i];
      rremove(i);
    }
    while (next < n && sub[next] == now) queue[qn++] = next++;
    /* FCFS part */
    while (qh < qn && (started[queue[qh]] || procs[queue[qh]] <= free)) {
      long i = queue[qh++];
      if (started[i]) continue;
      started[i] = 1; start[i] = now; free -= procs[i]; hpush(i); rinsert(i);
    }
    if (qh == qn || free == 0) continue;
    /* EASY: shadow time and extra processors for the head */
    long head = queue[qh], avail = free, extra = 0;
    double shadow = -1;
    for (long k = 0; k < rn; k++) {
      avail += procs[byEst[k]];
      if (avail >= procs[head]) {
        while (k + 1 < rn && start[byEst[k + 1]] + est[byEst[k + 1]] == start[byEst[k]] + est[byEst[k]]) avail += procs[byEst[++k]];
        double e = start[byEst[k]] + est[byEst[k]];
        shadow = e > now ? e : now;
        extra = avail - procs[head];
        break;
      }
    }
    for (long k = qh + 1; k < qn && free > 0; k++) {
      long i = queue[k];
      if (started[i] || procs[i] > free) continue;
      int ends = now + est[i] <= shadow;
      if (!ends && procs[i] > extra) continue;
      if (!ends) extra -= procs[i];
      started[i] = 1; start[i] = now; free -= procs[i]; hpush(i); rinsert(i);
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  for (long i = 0; i < n; i++) printf("%.17g\n", start[i]);
  fprintf(stderr, "%.6f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
  return 0;
}
