/**
 * `show(figure)`: one notebook output holding the chart as plotly's own MIME
 * type (`application/vnd.plotly.v1+json`) plus one static PNG.
 *
 * The plotly MIME type needs no notebook trust: JupyterLab and VS Code render
 * it themselves, and in the classic notebook the `schedlab-plotly` extension
 * (installed by the set-up and `schedlab init`, see ./jupyter.ts) renders it
 * from the local plotly bundle. Viewers without JavaScript (GitHub, nbviewer
 * without scripts, PDF export) fall back to the PNG. No script and no plotly
 * bundle is stored in the notebook, which keeps executed notebooks small.
 */
import * as path from 'path';
import type { Figure } from './charts';
import { display, displayUnavailableReason } from './display';
import { exportFigure, renderFigure } from './render';
import { figuresDir } from './paths';

export const PLOTLY_MIME = 'application/vnd.plotly.v1+json';

function titleOf(fig: Figure): string {
  return String((fig.layout.title as { text?: string } | undefined)?.text ?? 'chart');
}

/** The MIME bundle `show` sends for a figure (exported for tests and custom displays). */
export function figureBundle(fig: Figure, pngBase64: string): { data: Record<string, unknown>; metadata: Record<string, unknown> } {
  const spec = {
    data: fig.data,
    layout: { ...fig.layout, width: fig.width, height: fig.height },
    config: { displaylogo: false, responsive: false },
  };
  return {
    // JSON round trip: plotly traces may hold `undefined` fields, which JSON drops anyway.
    data: { [PLOTLY_MIME]: JSON.parse(JSON.stringify(spec)), 'image/png': pngBase64, 'text/plain': `<Figure: ${titleOf(fig)}>` },
    metadata: { 'image/png': { width: fig.width, height: fig.height } },
  };
}

/**
 * Display a figure inline (interactive chart + static image). Outside a
 * notebook it prints why it cannot display, and how to write the figure out.
 */
export async function show(fig: Figure): Promise<void> {
  const reason = displayUnavailableReason();
  if (reason !== undefined) {
    console.log(`[figure "${titleOf(fig)}" (${fig.data.length} traces) not displayed: ${reason}; exportFigure(fig, path) writes it to SVG/PNG/PDF]`);
    return;
  }
  // Scale 1.5: sharp on high-density screens, still ~50-100 kB per chart.
  const png = (await renderFigure(fig, 'png', { scale: 1.5 })).toString('base64');
  const { data, metadata } = figureBundle(fig, png);
  display(data, metadata);
}

const figureNumbers = new Map<string, Map<string, number>>();

/**
 * The file stem of a notebook's figure: `fig<NN>-<slug>`, numbered in the order
 * figures are first saved; saving the same slug again (a re-run cell) keeps
 * its number.
 */
export function figureStem(notebook: string, name: string): string {
  // Slugs are lower-case words joined by '-' ("Section 6.2 CDF" -> "section-6-2-cdf").
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (!slug) throw new Error(`figure name "${name}" has no letters or digits for a file slug`);
  let numbers = figureNumbers.get(notebook);
  if (!numbers) figureNumbers.set(notebook, (numbers = new Map()));
  let n = numbers.get(slug);
  if (n === undefined) numbers.set(slug, (n = numbers.size + 1));
  return `fig${String(n).padStart(2, '0')}-${slug}`;
}

/**
 * Show a figure and write it as SVG, PNG and PDF to
 * `figuresDir(notebook)/fig<NN>-<slug>.*`. Returns nothing, so a cell ending
 * with it shows no value (the files are listed in the figures folder).
 */
export async function saveFigure(fig: Figure, notebook: string, slug: string): Promise<void> {
  await show(fig);
  await exportFigure(fig, path.join(figuresDir(notebook), figureStem(notebook, slug)));
}
