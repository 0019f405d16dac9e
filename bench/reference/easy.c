/*
 * Tight EASY backfilling in C: the anchor of bench/batch.ts and
 * bench/easy-c.ts (schedlab's EASY is timed against it, and must give the
 * same start time to every job). Same rules as
 * src/schedulers/batch/simulate.ts: at each instant all completions and
 * arrivals are applied, then one pass: start from the queue head while it
 * fits; reserve for the head at the shadow time (every running job ending by
 * then counts, ties included); backfill in queue order any job that fits now
 * and ends by the shadow time or uses only extra processors.
 *
 * Two modes (build: gcc -O2 easy.c -lz):
 *  - no arguments: stdin "n machineSize" then n lines "submit runtime procs
 *    estimate", sorted by submit; stdout the n start times; stderr the
 *    simulation's wall and CPU seconds (reading and writing excluded).
 *  - easy TRACE.swf[.gz] OUT.csv: what `schedlab simulate --trace TRACE
 *    --policy easy --estimates requested --out OUT.csv` does: read the SWF
 *    (gzip or plain), keep the jobs schedlab keeps, machine size from the
 *    header (MaxProcs, else MaxNodes), write schedlab's per-job CSV (the
 *    same bytes) and the run's means on stdout; stderr the seconds spent
 *    reading, simulating and writing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <zlib.h>

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

/* The EASY run on sub, run, procs, est (n jobs sorted by submit) into start. */
static void easy(long n, long M) {
  heap = malloc(n * sizeof *heap); byEst = malloc(n * sizeof *byEst);
  long *queue = malloc(n * sizeof *queue);
  char *started = calloc(n, 1);
  hn = 0; rn = 0;
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
}

static double seconds(struct timespec a, struct timespec b) { return (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9; }

/* ---- the whole-process mode ---- */

/* A decimal field as schedlab reads it: up to 15 digits accumulated exactly, one division for the decimals. */
static const double POW10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
static double field(const char *s, const char *e) {
  const char *p = s;
  int neg = *p == '-';
  if (neg) p++;
  double v = 0;
  int digits = 0, dec = -1;
  for (; p < e; p++) {
    if (*p == '.' && dec < 0) dec = 0;
    else if (*p >= '0' && *p <= '9') { v = v * 10 + (*p - '0'); digits++; if (dec >= 0) dec++; }
    else break;
  }
  if (p == e && digits > 0 && digits <= 15) { double x = dec > 0 ? v / POW10[dec] : v; return neg ? -x : x; }
  char tmp[64];
  size_t len = (size_t)(e - s) < sizeof tmp - 1 ? (size_t)(e - s) : sizeof tmp - 1;
  memcpy(tmp, s, len); tmp[len] = 0;
  return strtod(tmp, NULL);
}

/* A number as JavaScript's String(x) writes it: whole numbers as integers, others by the shortest round trip. */
static char *putnum(char *o, double x) {
  if (x == floor(x) && fabs(x) < 1e15) {
    long long v = (long long)x;
    char d[24];
    int k = 0;
    if (v < 0) { *o++ = '-'; v = -v; }
    do { d[k++] = '0' + v % 10; v /= 10; } while (v);
    while (k) *o++ = d[--k];
    return o;
  }
  if (isinf(x)) { memcpy(o, x > 0 ? "Infinity" : "-Infinity", x > 0 ? 8 : 9); return o + (x > 0 ? 8 : 9); }
  for (int prec = 15; prec <= 17; prec++) {
    int len = sprintf(o, "%.*g", prec, x);
    if (prec == 17 || strtod(o, NULL) == x) return o + len;
  }
  return o;
}

static int whole(const char *tracePath, const char *outPath) {
  struct timespec t0, t1, t2, t3;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  gzFile gz = gzopen(tracePath, "rb");
  if (!gz) { fprintf(stderr, "cannot open %s\n", tracePath); return 2; }
  gzbuffer(gz, 1 << 17);
  size_t cap = 1 << 24, len = 0;
  char *text = malloc(cap);
  for (;;) {
    if (len == cap) text = realloc(text, cap *= 2);
    int got = gzread(gz, text + len, (unsigned)(cap - len > (1u << 30) ? (1u << 30) : cap - len));
    if (got < 0) { fprintf(stderr, "damaged gzip data in %s\n", tracePath); return 2; }
    if (got == 0) break;
    len += got;
  }
  gzclose(gz);
  long cap2 = 1 << 16, n = 0, M = 0, maxNodes = 0;
  double *id = malloc(cap2 * sizeof *id);
  sub = malloc(cap2 * sizeof *sub); run = malloc(cap2 * sizeof *run); est = malloc(cap2 * sizeof *est); procs = malloc(cap2 * sizeof *procs);
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', end - p);
    if (!nl) nl = end;
    const char *q = p;
    while (q < nl && (*q == ' ' || *q == '\t')) q++;
    if (q < nl && *q == ';') {
      if (!strncmp(q, "; MaxProcs:", 11)) M = atol(q + 11);
      else if (!strncmp(q, "; MaxNodes:", 11)) maxNodes = atol(q + 11);
    } else if (q < nl) {
      double v[18];
      int f = 0;
      while (q < nl && f < 18) {
        const char *t = q;
        while (q < nl && *q != ' ' && *q != '\t' && *q != '\r') q++;
        v[f++] = field(t, q);
        while (q < nl && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
      }
      if (f != 18 || q != nl) { fprintf(stderr, "%s: a job line without 18 fields\n", tracePath); return 2; }
      if (v[1] != -1 && v[3] != -1 && v[4] != -1 && v[4] != 0) {
        if (n == cap2) {
          cap2 *= 2;
          id = realloc(id, cap2 * sizeof *id); sub = realloc(sub, cap2 * sizeof *sub); run = realloc(run, cap2 * sizeof *run);
          est = realloc(est, cap2 * sizeof *est); procs = realloc(procs, cap2 * sizeof *procs);
        }
        id[n] = v[0]; sub[n] = v[1]; run[n] = v[3]; procs[n] = (long)v[4];
        est[n] = v[8] > 0 ? (v[8] > v[3] ? v[8] : v[3]) : v[3];
        if (n > 0 && sub[n] < sub[n - 1]) { fprintf(stderr, "%s: not sorted by submit time\n", tracePath); return 2; }
        n++;
      }
    }
    p = nl + 1;
  }
  free(text);
  if (M <= 0) M = maxNodes;
  start = malloc(n * sizeof *start);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  easy(n, M);
  clock_gettime(CLOCK_MONOTONIC, &t2);
  /* The per-job CSV (bounded-slowdown threshold 10 s) and the run's means. */
  char *out = malloc(200 * (size_t)n + 128), *o = out;
  const char *head = "id,submit,start,end,runtime,procs,wait,response,stretch,bounded_slowdown\n";
  o += sprintf(o, "%s", head);
  double sw = 0, sr = 0, sb = 0, ss = 0, first = INFINITY, last = -INFINITY, work = 0;
  long ns = 0;
  for (long i = 0; i < n; i++) {
    double e = start[i] + run[i], w = start[i] - sub[i], r = e - sub[i];
    double st = run[i] > 0 ? r / run[i] : (r == 0 ? 1 : INFINITY);
    double b = r / (run[i] > 10 ? run[i] : 10);
    if (b < 1) b = 1;
    o = putnum(o, id[i]); *o++ = ','; o = putnum(o, sub[i]); *o++ = ','; o = putnum(o, start[i]); *o++ = ',';
    o = putnum(o, e); *o++ = ','; o = putnum(o, run[i]); *o++ = ','; o = putnum(o, (double)procs[i]); *o++ = ',';
    o = putnum(o, w); *o++ = ','; o = putnum(o, r); *o++ = ','; o = putnum(o, st); *o++ = ','; o = putnum(o, b); *o++ = '\n';
    sw += w; sr += r; sb += b;
    if (st != INFINITY) { ss += st; ns++; }
    if (sub[i] < first) first = sub[i];
    if (e > last) last = e;
    work += run[i] * procs[i];
  }
  FILE *fo = fopen(outPath, "wb");
  if (!fo || fwrite(out, 1, o - out, fo) != (size_t)(o - out) || fclose(fo)) { fprintf(stderr, "cannot write %s\n", outPath); return 1; }
  printf("jobs %ld\nwait mean %.1f\nresponse mean %.1f\nbounded sld mean %.2f\nstretch mean %.2f\nutilization %.3f\n", n, sw / n, sr / n, sb / n, ss / ns, work / (M * (last - first)));
  clock_gettime(CLOCK_MONOTONIC, &t3);
  fprintf(stderr, "read %.6f simulate %.6f write %.6f\n", seconds(t0, t1), seconds(t1, t2), seconds(t2, t3));
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3) return whole(argv[1], argv[2]);
  long n, M;
  if (scanf("%ld %ld", &n, &M) != 2) return 2;
  sub = malloc(n * sizeof *sub); run = malloc(n * sizeof *run); est = malloc(n * sizeof *est);
  start = malloc(n * sizeof *start); procs = malloc(n * sizeof *procs);
  for (long i = 0; i < n; i++)
    if (scanf("%lf %lf %ld %lf", &sub[i], &run[i], &procs[i], &est[i]) != 4) return 2;
  struct timespec t0, t1, c0, c1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  easy(n, M);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  for (long i = 0; i < n; i++) printf("%.17g\n", start[i]);
  fprintf(stderr, "%.6f %.6f\n", seconds(t0, t1), seconds(c0, c1));
  return 0;
}
