/**
 * Source texts shared by the benches' child scripts (bench/first-figure.ts,
 * bench/figure-cost.ts).
 *
 * `chromiumCpu()`: CPU seconds
 * (user + system, children's included) of every live process descending from
 * the child, read from /proc — Chromium's, whose renderers no process waits for.
 */
export const CHROMIUM_CPU_SOURCE = String.raw`
function chromiumCpu() {
  const procs = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = fs.readFileSync('/proc/' + d + '/stat', 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      procs.set(+d, { ppid: +f[1], cpu: (+f[11] + +f[12] + +f[13] + +f[14]) / 100 });
    } catch {}
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) { grew = false; for (const [p, k] of procs) if (!mine.has(p) && mine.has(k.ppid)) { mine.add(p); grew = true; } }
  let sum = 0; for (const p of mine) if (p !== process.pid) sum += procs.get(p).cpu; return sum;
}
`;

/** `figures(lib)`: the six figures both benches draw (03's and 04's headline charts, line with error bars on a log axis, bar, CDF, Gantt). */
export const SIX_FIGURES_SOURCE = String.raw`
function figures(lib) {
  const data = [];
  for (const algorithm of ['EASY', 'FCFS']) for (const load of [0.5, 0.7, 0.9]) data.push({ algorithm, load, y: load * (algorithm === 'EASY' ? 10 : 14), ci95: 0.5 });
  const gantt = [];
  for (let j = 0; j < 12; j++) gantt.push({ node: 'n' + (j % 4), start: j * 3, end: j * 3 + 5, job: 'j' + j });
  return {
    'headline 03': lib.headlineChart('03-evolving-applications'),
    'headline 04': lib.headlineChart('04-advance-reservation'),
    line: lib.lineChart({ data, x: 'load', y: 'y', series: 'algorithm', error: 'ci95', logY: true, title: 'Line' }),
    bar: lib.barChart({ data, x: 'load', y: 'y', series: 'algorithm', title: 'Bar' }),
    cdf: lib.cdfChart({ data: data.map((r) => ({ v: r.y, algorithm: r.algorithm })), value: 'v', series: 'algorithm', title: 'CDF' }),
    gantt: lib.ganttChart({ data: gantt, row: 'node', start: 'start', end: 'end', series: 'job', title: 'Gantt' }),
  };
}
`;
