/**
 * Static rendering of figures in headless Chromium (Debian's /usr/bin/chromium,
 * driven by playwright-core). plotly.js needs a browser, so it runs there, from
 * installed bundles (no network). One browser is kept for the whole process,
 * with one page per plotly bundle, each reused for every figure it draws.
 *
 * Most of a kernel's first figure is starting Chromium and compiling plotly
 * (bench/first-figure.ts). plotly.js-dist holds every trace type (10 MB); the
 * same version's basic bundle (scatter, bar, pie: 1.2 MB) costs about half
 * the Chromium CPU to load and draws every chart this toolkit builds. A figure
 * goes to the basic bundle when that bundle knows all it uses, else to the
 * full one, opened on the first such figure. Inside a notebook kernel the
 * browser and the basic bundle start in the background when this module
 * loads, while the first cells compute.
 *
 * With SCHEDLAB_BROWSER set to a running Chromium's DevTools endpoint
 * (`startSharedBrowser`), a process draws in its own context of that browser
 * instead of launching one: many kernels (a test run, a notebook server) then
 * share one Chromium, and each skips the launch (bench/results/shared-browser.json).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as os from 'os';
import { pathToFileURL } from 'url';
import { spawn } from 'child_process';
import type { Figure } from './charts';
import { makeFolder, UsageError } from '../util/errors';
import { inNotebook } from './display';
import { imagesMode, writeFigureSpec } from './images';

type Browser = import('playwright-core').BrowserContext;
type Page = import('playwright-core').Page;

/** The Chromium flags this closed network needs (no sandbox as root, no background traffic). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Path of the plotly.js bundle shipped by the plotly.js-dist package (every trace type). */
export function plotlyBundlePath(): string {
  return require.resolve('plotly.js-dist');
}

/** The plotly bundles figures are drawn with: `basic` (plotly.js-basic-dist-min, same version) when it knows all the figure uses, else `full`. */
export type PlotlyBundle = 'basic' | 'full';

function bundlePath(bundle: PlotlyBundle): string {
  return bundle === 'full' ? plotlyBundlePath() : require.resolve('plotly.js-basic-dist-min');
}

/** The Chromium executable: SCHEDLAB_CHROMIUM, else /usr/bin/chromium. */
export function chromiumPath(): string {
  const p = process.env.SCHEDLAB_CHROMIUM ?? '/usr/bin/chromium';
  if (!fs.existsSync(p)) {
    throw new Error(`Chromium not found at ${p}: run the set-up (scripts/setup.sh installs Debian's chromium) or set SCHEDLAB_CHROMIUM`);
  }
  return p;
}

interface Session {
  browser: Browser;
  /** A page per plotly bundle, opened on its first figure (basic: with the session) and reused. */
  pages: Partial<Record<PlotlyBundle, Promise<Page>>>;
  /** The page PDFs are printed from, opened on the first PDF and reused: each PDF waits for the one before (one document at a time). */
  pdfPage?: Promise<Page>;
  /** A folder of the session's own (the launched browser's profile), deleted on close: the plotly pages are files there. */
  dir: string;
  /** Closes what the session opened: the browser it launched, or its context in a shared one. */
  close(): Promise<void>;
}

let session: Promise<Session> | undefined;

async function startSession(): Promise<Session> {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  const endpoint = process.env.SCHEDLAB_BROWSER;
  let s: Session;
  if (endpoint) {
    const shared = await chromium.connectOverCDP(endpoint).catch((e: Error) => {
      throw new Error(`SCHEDLAB_BROWSER=${endpoint}: no Chromium answers there (${e.message.split('\n')[0]}); unset it to launch one`);
    });
    const context = await shared.newContext();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-chromium-'));
    s = { browser: context, pages: {}, dir, close: async () => { await context.close(); await shared.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
  } else {
    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-chromium-'));
    // A fresh, throw-away profile for every session.
    const browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath(),
      headless: true,
      args: CHROMIUM_ARGS,
      // In a kernel SIGINT interrupts a cell (and Jupyter sends one before every shutdown):
      // playwright's default handler would close the browser and exit the kernel.
      handleSIGINT: !inNotebook(),
    });
    s = { browser, pages: {}, dir: userDataDir, close: async () => { await browser.close(); fs.rmSync(userDataDir, { recursive: true, force: true }); } };
  }
  // The likely page is ready when the session is.
  await plotlyPage(s, 'basic');
  return s;
}

/** A Chromium started by `startSharedBrowser`: its DevTools endpoint (for SCHEDLAB_BROWSER) and how to stop it. */
export interface SharedBrowser {
  endpoint: string;
  /** Stop the browser (SIGTERM: it shuts its processes down and flushes its profile; SIGKILL after 10 s), then delete its profile. */
  close(): Promise<void>;
  /** For an exit handler, where nothing can be awaited: SIGKILL, and the profile deleted as far as it can be then. */
  kill(): void;
}

/**
 * Launch a Chromium that other processes draw in: set SCHEDLAB_BROWSER to its
 * `endpoint` in their environment (the test suite does so for its notebook
 * executions). Each process opens its own context there and closes it when
 * done; the caller closes the browser.
 */
export async function startSharedBrowser(): Promise<SharedBrowser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'schedlab-chromium-shared-'));
  // Its own process group, so that a signal reaches every process it started.
  const child = spawn(chromiumPath(), [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${userDataDir}`, 'about:blank'], { stdio: 'ignore', detached: true });
  child.unref();
  let exited: string | undefined;
  const gone = new Promise<void>((resolve) => {
    child.on('error', (e) => {
      exited = e.message;
      resolve();
    });
    child.on('exit', (code, signal) => {
      exited = `exited (${code ?? signal})`;
      resolve();
    });
  });
  /** Send `sig` to every process of the browser's group (0 only asks); false when none is left. */
  const signalGroup = (sig: NodeJS.Signals | 0): boolean => {
    try {
      return child.pid !== undefined && process.kill(-child.pid, sig);
    } catch {
      return false;
    }
  };
  const kill = () => {
    signalGroup('SIGKILL');
    try {
      fs.rmSync(userDataDir, { recursive: true, force: true });
    } catch {
      // at exit, a killed renderer may still be writing there: what remains is a temporary folder
    }
  };
  const close = async () => {
    // The browser alone first: it shuts its own processes down and flushes its profile.
    if (exited === undefined) child.kill('SIGTERM');
    const hard = setTimeout(() => signalGroup('SIGKILL'), 10_000);
    await gone;
    clearTimeout(hard);
    // Then whatever is left of its group, before the profile is deleted.
    for (let i = 0; signalGroup('SIGKILL') && i < 200; i++) await new Promise((r) => setTimeout(r, 50));
    fs.rmSync(userDataDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  };
  // Chromium writes the port it chose and the browser's path to DevToolsActivePort in its profile.
  const portFile = path.join(userDataDir, 'DevToolsActivePort');
  for (const t0 = Date.now(); Date.now() - t0 < 60_000; await new Promise((r) => setTimeout(r, 50))) {
    if (exited !== undefined) break;
    const [port, browserPath] = fs.existsSync(portFile) ? fs.readFileSync(portFile, 'utf8').split('\n') : [];
    if (port && browserPath) return { endpoint: `ws://127.0.0.1:${port}${browserPath}`, close, kill };
  }
  const why = exited ?? 'did not open its DevTools port within 60 s';
  await close();
  throw new Error(`Chromium (${chromiumPath()}) ${why}`);
}

/** The session's page holding the given plotly bundle, opened on first use. */
function plotlyPage(s: Session, bundle: PlotlyBundle): Promise<Page> {
  let page = s.pages[bundle];
  if (!page) {
    page = (async () => {
      const p = await s.browser.newPage();
      // plotly as a file the page loads (compiled while streamed from disk), not
      // megabytes of script sent through the DevTools protocol.
      const html = path.join(s.dir, `figure-${bundle}.html`);
      fs.writeFileSync(html, `<!doctype html><html><head><meta charset="utf-8"><script src="${pathToFileURL(bundlePath(bundle)).href}"></script></head><body style="margin:0;background:#fff"><div id="g"></div></body></html>`);
      // Loading the full bundle on a loaded machine can take longer than playwright's 30 s default.
      await p.goto(pathToFileURL(html).href, { timeout: 300_000 });
      return p;
    })();
    s.pages[bundle] = page;
    page.catch(() => delete s.pages[bundle]);
  }
  return page;
}

function getSession(): Promise<Session> {
  // The one gate before Chromium: with images off it never starts (nor on loading this module in a kernel).
  if (imagesMode() === 'off') return Promise.reject(new UsageError('SCHEDLAB_IMAGES=off: figures are not drawn and Chromium is not started (set SCHEDLAB_IMAGES=on to draw them)', { source: 'SCHEDLAB_IMAGES' }));
  if (!session) {
    session = startSession();
    session.catch(() => (session = undefined));
  }
  return session;
}

/**
 * Start the renderer now, without waiting for it (a later figure waits). Done
 * when this module loads inside a notebook kernel, so that Chromium starts
 * while the first cells compute; a failed start is reported by the first figure.
 */
export function warmRenderer(): Promise<void> {
  return getSession().then(
    () => undefined,
    () => undefined,
  );
}

if (inNotebook()) void warmRenderer();

/** Close the shared browser (tests and scripts call this so the process can exit). */
export async function closeRenderer(): Promise<void> {
  if (!session) return;
  const s = session;
  session = undefined;
  try {
    await (await s).close();
  } catch {
    // a failed start has nothing to close
  }
}

/** Static image formats a figure is rendered to. */
export type ImageFormat = 'png' | 'svg' | 'pdf';

/** Options of `renderFigure`: pixel scale of PNG output. */
export interface RenderOptions {
  /** Pixel density of PNG output (default 2: crisp at the figure's CSS size). */
  scale?: number;
}

interface PlotlyGlobal {
  toImage: (fig: unknown, o: unknown) => Promise<string>;
  newPlot: (gd: HTMLElement, data: unknown, layout: unknown, config: unknown) => Promise<unknown>;
  purge: (gd: HTMLElement) => void;
  Snapshot: {
    toSVG: (gd: HTMLElement, format: string, scale: number) => string;
    svgToImg: (o: { format: string; width: number; height: number; scale: number; canvas: HTMLCanvasElement; svg: string; promise: true }) => Promise<string>;
    getDelay: (fullLayout: unknown) => number;
    getRedrawFunc: (gd: HTMLElement) => () => void;
  };
  PlotSchema: { get: () => { traces: Record<string, { attributes: Record<string, unknown>; layoutAttributes?: Record<string, unknown> }>; layout: { layoutAttributes: Record<string, unknown> } } };
}
type PageFigure = Pick<Figure, 'data' | 'layout' | 'width' | 'height'>;

/**
 * Runs in a page: whether its plotly bundle knows everything the figure uses,
 * read from the bundle's own schema: each trace's type (plotly's default:
 * scatter) and top-level attributes, and the layout's (numbered axes as their
 * base name). Anything it does not know goes to the full bundle, which draws
 * the figure as it always did (a key plotly ignores anyway too: slower, never wrong).
 */
function bundleKnows(f: PageFigure): boolean {
  const schema = (globalThis as unknown as { Plotly: PlotlyGlobal }).Plotly.PlotSchema.get();
  const known = (attrs: Record<string, unknown>, key: string) => Object.prototype.hasOwnProperty.call(attrs, key);
  for (const trace of f.data as Record<string, unknown>[]) {
    const type = trace.type === undefined ? 'scatter' : String(trace.type);
    if (!known(schema.traces, type)) return false;
    if (!Object.keys(trace).every((k) => known(schema.traces[type].attributes, k))) return false;
  }
  // The layout's own attributes and those its trace types add (barmode, bargap...).
  const layouts = [schema.layout.layoutAttributes, ...Object.values(schema.traces).map((t) => t.layoutAttributes ?? {})];
  return Object.keys(f.layout).every((k) => layouts.some((attrs) => known(attrs, k.replace(/^([a-z]+axis|polar|geo|scene|ternary|map|mapbox|smith)\d+$/, '$1'))));
}

/** What one layout of a figure gives (runs in a page, returned to node). */
interface Drawing {
  /** The SVG file's text, as plotly's `toImage(…'svg')` gives it (when asked for). */
  svg?: string;
  /** PNG bytes (base64) by scale, as `toImage(…'png')` gives them. */
  png: Record<string, string>;
}

/**
 * Runs in a page: the figure laid out once, as plotly's `toImage` lays it out
 * (plotly 4.1 src/plot_api/to_image.js: newPlot in an off-screen div with the
 * static export config, colorbars redrawn, toSVG), then rasterised by plotly's
 * own svgToImg at each scale asked, from the SVG text `toImage` rasterises.
 * Every `toImage` call lays the figure out anew; one layout here gives the SVG
 * and every PNG of a figure. Null when `onlyIfKnown` and the page's bundle
 * does not know the figure.
 */
async function drawInPage({ f, svg: withSvg, scales, onlyIfKnown, knows }: { f: PageFigure; svg: boolean; scales: number[]; onlyIfKnown: boolean; knows: string }): Promise<Drawing | null> {
  if (onlyIfKnown && !(new Function(`return (${knows})`)() as typeof bundleKnows)(f)) return null;
  const P = (globalThis as unknown as { Plotly: PlotlyGlobal }).Plotly;
  const layout = { ...f.layout, width: f.width, height: f.height };
  // plotly writes computed ranges back into the layout it is given: a copy for the rare second layout below.
  const source = JSON.stringify({ data: f.data, layout });
  const gd = document.createElement('div');
  gd.style.position = 'absolute';
  gd.style.left = '-5000px';
  document.body.appendChild(gd);
  let svgForPng: string;
  let width: number;
  let height: number;
  try {
    await P.newPlot(gd, f.data, layout, { _exportedPlot: true, staticPlot: true, setBackground: false });
    P.Snapshot.getRedrawFunc(gd)();
    const full = (gd as unknown as { _fullLayout: { width: number; height: number } })._fullLayout;
    await new Promise((resolve) => setTimeout(resolve, P.Snapshot.getDelay(full)));
    svgForPng = P.Snapshot.toSVG(gd, 'png', 1);
    ({ width, height } = full);
  } finally {
    P.purge(gd);
    gd.remove();
  }
  // toSVG for 'svg' at scale 1 differs only in setting the root's width and
  // height (to the values they have) and adding a viewBox, the last attribute.
  const rootEnd = svgForPng.indexOf('>');
  const root = svgForPng.slice(0, rootEnd);
  let svg: string | undefined;
  if (!withSvg) svg = undefined;
  else if (root.startsWith('<svg ') && !root.endsWith('/') && root.includes(` width="${width}" height="${height}"`) && !root.includes('viewBox')) {
    svg = `${root} viewBox="0 0 ${width} ${height}"${svgForPng.slice(rootEnd)}`;
  } else {
    const url = await P.toImage(JSON.parse(source), { format: 'svg', width: f.width, height: f.height, scale: 1 });
    svg = decodeURIComponent(url.slice(url.indexOf(',') + 1));
  }
  const png: Record<string, string> = {};
  for (const scale of scales) {
    const url = await P.Snapshot.svgToImg({ format: 'png', width, height, scale, canvas: document.createElement('canvas'), svg: svgForPng, promise: true });
    png[String(scale)] = url.slice(url.indexOf(',') + 1);
  }
  return { svg, png };
}

/** Runs in a page: one image by plotly's own `toImage` (one layout per image), as a data URL. */
async function toImageInPage({ f, fmt, scale }: { f: PageFigure; fmt: string; scale: number }): Promise<string> {
  const P = (globalThis as unknown as { Plotly: PlotlyGlobal }).Plotly;
  return P.toImage({ data: f.data, layout: { ...f.layout, width: f.width, height: f.height } }, { format: fmt, width: f.width, height: f.height, scale });
}

/** The plotly bundle `renderFigure` draws this figure with (starts the renderer if needed). */
export async function plotlyBundleFor(fig: Figure): Promise<PlotlyBundle> {
  const page = await plotlyPage(await getSession(), 'basic');
  return (await page.evaluate(bundleKnows, JSON.parse(JSON.stringify(fig)) as PageFigure)) ? 'basic' : 'full';
}

/**
 * An SVG with every element's attributes in name order. Chromium adds an
 * element's style attribute when something reads it, not when plotly sets the
 * style, so the order of plotly's attributes depends on what ran in between:
 * a figure's first layout in a page (texts plotly measures) writes the legend's
 * `style` before its `width`, later ones after it, and the root's `style` came
 * before or after `viewBox` from one `toImage` call to the next. Sorted, an
 * SVG's bytes are the same whatever the page drew before.
 */
export function sortAttributes(svg: string): string {
  const name = (attribute: string) => attribute.slice(0, attribute.indexOf('='));
  return svg.replace(/<([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+="[^"]*")+)(\s*\/?)>/g, (_, tag: string, attributes: string, end: string) => {
    const sorted = (attributes.match(/[^\s=]+="[^"]*"/g) as string[]).sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
    return `<${tag} ${sorted.join(' ')}${end}>`;
  });
}

/** The figure laid out once, giving its SVG (when `svg`) and its PNGs at `scales`: one page round trip when the basic bundle draws it (nearly always). */
async function draw(fig: Figure, svg: boolean, scales: number[]): Promise<{ svg: string; png: Record<string, Buffer> }> {
  const s = await getSession();
  const args = { f: JSON.parse(JSON.stringify(fig)) as PageFigure, svg, scales, onlyIfKnown: true, knows: bundleKnows.toString() };
  const drawing = (await (await plotlyPage(s, 'basic')).evaluate(drawInPage, args)) ?? (await (await plotlyPage(s, 'full')).evaluate(drawInPage, { ...args, onlyIfKnown: false }));
  if (drawing === null) throw new Error('plotly drew no image');
  return { svg: sortAttributes(drawing.svg ?? ''), png: Object.fromEntries(Object.entries(drawing.png).map(([scale, b64]) => [scale, Buffer.from(b64, 'base64')])) };
}

function checkFormat(format: string, caller: string): asserts format is ImageFormat {
  if (!['png', 'svg', 'pdf'].includes(format)) throw new UsageError(`${caller}: format must be png, svg or pdf, got ${JSON.stringify(format)}`, { field: 'format' });
}

/** Render a figure to PNG, SVG or PDF bytes. */
export async function renderFigure(fig: Figure, format: ImageFormat, options: RenderOptions = {}): Promise<Buffer> {
  checkFormat(format, 'renderFigure');
  const scale = options.scale ?? 2;
  if (format === 'png') return (await draw(fig, false, [scale])).png[String(scale)];
  const { svg } = await draw(fig, true, []);
  return format === 'svg' ? Buffer.from(svg, 'utf8') : pdfOf(fig, svg);
}

/**
 * The figure as plotly's own `toImage` draws it, one layout per image (as
 * `renderFigure` did before it drew every image of a figure from one layout):
 * the reference `renderFigure` is compared with, byte for byte
 * (test/analysis/render-once.test.ts, bench/figure-cost.ts).
 */
export async function plotlyToImage(fig: Figure, format: 'png' | 'svg', options: RenderOptions = {}): Promise<Buffer> {
  const s = await getSession();
  const f = JSON.parse(JSON.stringify(fig)) as PageFigure;
  const bundle = (await (await plotlyPage(s, 'basic')).evaluate(bundleKnows, f)) ? 'basic' : 'full';
  const url = await (await plotlyPage(s, bundle)).evaluate(toImageInPage, { f, fmt: format, scale: format === 'png' ? options.scale ?? 2 : 1 });
  const body = url.slice(url.indexOf(',') + 1);
  return format === 'png' ? Buffer.from(body, 'base64') : Buffer.from(decodeURIComponent(body), 'utf8');
}

/** The figure's SVG (as `renderFigure` draws it) printed to a one-page PDF. */
async function pdfOf(fig: Figure, svg: string): Promise<Buffer> {
  const s = await getSession();
  const opened = (s.pdfPage ??= s.browser.newPage());
  // Chromium writes the document title as the PDF's Title metadata.
  const title = String((fig.layout.title as { text?: string } | undefined)?.text ?? 'figure').replace(/<[^>]*>/g, '').replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] as string);
  const print = opened.then(async (pdfPage) => {
    await pdfPage.setContent(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="margin:0">${svg}</body></html>`);
    return pdfPage.pdf({ width: `${fig.width}px`, height: `${fig.height}px`, printBackground: true, pageRanges: '1' });
  });
  // The next PDF starts when this one is done, failed or not.
  s.pdfPage = print.then(() => opened, () => opened);
  return print;
}

/**
 * Write a figure at publication size: `<base>.svg`, `<base>.png` and `<base>.pdf`
 * (or only the formats asked for). With SCHEDLAB_IMAGES=off it draws nothing
 * and writes the figure's plotly spec, `<base>.json`. Returns the paths written.
 * The SVG's attributes are in name order (`sortAttributes`): a figure's files
 * are the same bytes whatever the renderer drew before (plotly's ids aside).
 */
export async function exportFigure(fig: Figure, base: string, options: { formats?: ImageFormat[]; scale?: number } = {}): Promise<string[]> {
  if (imagesMode() === 'off') return [writeFigureSpec(fig, base)];
  const formats = options.formats ?? ['svg', 'png', 'pdf'];
  for (const fmt of formats) checkFormat(fmt, 'exportFigure');
  makeFolder(path.dirname(path.resolve(base)));
  const scale = options.scale ?? 2;
  // One layout gives every format (the PDF prints the SVG).
  const drawing = await draw(fig, formats.includes('svg') || formats.includes('pdf'), formats.includes('png') ? [scale] : []);
  const written: string[] = [];
  for (const fmt of formats) {
    const file = `${base.replace(/\.(svg|png|pdf)$/i, '')}.${fmt}`;
    const bytes = fmt === 'png' ? drawing.png[String(scale)] : fmt === 'svg' ? Buffer.from(drawing.svg, 'utf8') : await pdfOf(fig, drawing.svg);
    fs.writeFileSync(file, bytes);
    written.push(file);
  }
  return written;
}
