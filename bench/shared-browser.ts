/**
 * What a kernel's own Chromium costs against drawing in a shared one
 * (SCHEDLAB_BROWSER, startSharedBrowser): notebook executions at quick scale,
 * own browser and shared browser alternating. CPU = the run's own (user +
 * system of run-notebook.sh and everything it waited for) plus Chromium's,
 * sampled from /proc every 100 ms (a kernel's renderer processes are reaped by
 * no process the run waits for, so rusage misses them): every chromium
 * process seen, its last CPU reading, by pid and start time.
 *
 *   npx ts-node --transpile-only bench/shared-browser.ts [rounds] [notebook ...]
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startSharedBrowser } from '../src/analysis/render';
import { registerFolderKernel } from '../src/analysis/jupyter';

const ROOT = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const rounds = Number(args[0] ?? 2);
const books = args.length > 1 ? args.slice(1) : ['00-quickstart', '03-evolving-applications'];

/** CPU s so far of the chromium processes descending from this process, by pid and start time. */
function descendantsNow(): Map<string, number> {
  const ps = new Map<number, { name: string; ppid: number; start: string; cpu: number }>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      ps.set(Number(d), { name: s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')), ppid: Number(f[1]), start: f[19], cpu: (Number(f[11]) + Number(f[12])) / 100 });
    } catch {
      // gone meanwhile
    }
  }
  const out = new Map<string, number>();
  for (const [pid, p] of ps) {
    if (!p.name.startsWith('chrom')) continue;
    let a = p.ppid;
    for (let n = 0; a > 1 && a !== process.pid && n < 50; n++) a = ps.get(a)?.ppid ?? 0;
    if (a === process.pid) out.set(`${pid}/${p.start}`, p.cpu);
  }
  return out;
}

/** The shared browser's processes' CPU before a run (the previous run's last samples). */
let lastSeen = new Map<string, number>();
const seen0 = () => lastSeen;

async function main(): Promise<void> {
  const kernel = registerFolderKernel(ROOT);
  const shared = await startSharedBrowser();
  await new Promise((res) => setTimeout(res, 2000));
  lastSeen = descendantsNow();
  const rows: Record<string, unknown>[] = [];
  try {
    for (let r = 0; r < rounds; r++) {
      for (const nb of books) {
        for (const mode of r % 2 === 0 ? ['own', 'shared'] : ['shared', 'own']) {
          const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-shared-'));
          const env: NodeJS.ProcessEnv = { ...process.env, SCHEDLAB_SCALE: 'quick', SCHEDLAB_OUT: out, SCHEDLAB_KERNEL: kernel };
          if (mode === 'shared') env.SCHEDLAB_BROWSER = shared.endpoint;
          else delete env.SCHEDLAB_BROWSER;
          const seen = new Map<string, number>();
          const before = new Map<string, number>(seen0());
          // Sample in a child so that the synchronous run below does not block it.
          const sampler = path.join(out, 'sampler.js');
          // Chromium processes descending from this process only (the shared browser is its child; a kernel's is the run's).
          fs.writeFileSync(sampler, `const fs=require('fs');const root=${process.pid};const seen=new Map();
function tick(){const ps=new Map();for(const d of fs.readdirSync('/proc')){if(!/^\\d+$/.test(d))continue;try{const s=fs.readFileSync('/proc/'+d+'/stat','utf8');const f=s.slice(s.lastIndexOf(')')+2).split(' ');ps.set(+d,{name:s.slice(s.indexOf('(')+1,s.lastIndexOf(')')),ppid:+f[1],start:f[19],cpu:(+f[11]+ +f[12])/100});}catch{}}
for(const [pid,p] of ps){if(!p.name.startsWith('chrom'))continue;let a=p.ppid,n=0;while(a>1&&a!==root&&n++<50)a=ps.get(a)?ps.get(a).ppid:0;if(a===root)seen.set(pid+'/'+p.start,p.cpu);}
fs.writeFileSync(process.argv[2]+'.t',JSON.stringify([...seen]));fs.renameSync(process.argv[2]+'.t',process.argv[2]);}setInterval(tick,100);`);
          const seenFile = path.join(out, 'seen.json');
          const child = require('child_process').spawn(process.execPath, [sampler, seenFile], { stdio: 'ignore' });
          const t0 = Date.now();
          const run = spawnSync('/usr/bin/time', ['-f', '%U %S', 'bash', 'scripts/run-notebook.sh', `notebooks/${nb}.ipynb`], { cwd: ROOT, env, encoding: 'utf8' });
          await new Promise((res) => setTimeout(res, 300));
          child.kill();
          const wall = (Date.now() - t0) / 1000;
          for (const [k, v] of JSON.parse(fs.readFileSync(seenFile, 'utf8')) as [string, number][]) seen.set(k, v);
          let chromium = 0;
          for (const [k, v] of seen) chromium += v - (before.get(k) ?? 0);
          lastSeen = seen;
          const [u, s] = run.stderr.trim().split('\n').pop()!.split(' ').map(Number);
          const row = { round: r + 1, notebook: nb, mode, status: run.status, wallS: +wall.toFixed(1), runCpuS: +(u + s).toFixed(2), chromiumCpuS: +chromium.toFixed(2), load: os.loadavg()[0] };
          console.log(JSON.stringify(row));
          if (run.status !== 0) console.log(run.stderr.slice(-1500));
          rows.push(row);
          fs.rmSync(out, { recursive: true, force: true });
        }
      }
    }
  } finally {
    await shared.close();
  }
  const summary: Record<string, unknown> = {};
  for (const nb of books) {
    for (const mode of ['own', 'shared']) {
      const xs = rows.filter((x) => x.notebook === nb && x.mode === mode);
      const mean = (k: string) => +(xs.reduce((a, x) => a + (x[k] as number), 0) / xs.length).toFixed(2);
      summary[`${nb} ${mode}`] = { runCpuS: mean('runCpuS'), chromiumCpuS: mean('chromiumCpuS') };
    }
  }
  const file = path.join(ROOT, 'bench', 'results', 'shared-browser.json');
  fs.writeFileSync(file, JSON.stringify({ benchmark: 'shared-browser', date: new Date().toISOString(), cpus: os.availableParallelism(), how: 'quick-scale executions, own Chromium vs SCHEDLAB_BROWSER (one browser started by startSharedBrowser for the whole run), alternating; CPU = run (time) + Chromium (sampled from /proc, 100 ms)', summary, rows }, null, 1) + '\n');
  console.log(JSON.stringify(summary));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
