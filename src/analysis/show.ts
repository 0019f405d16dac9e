/**
 * `show(figure)`: an interactive plotly chart in the notebook that also carries
 * a static PNG of itself, so an executed notebook reads correctly in a viewer
 * without JavaScript. The plotly bundle (from plotly.js-dist, no CDN) is
 * embedded once per kernel session, in the first chart shown.
 */
import * as fs from 'fs';
import { hashString } from '../util/random';
import type { Figure } from './charts';
import { display, inNotebook } from './display';
import { plotlyBundlePath, renderFigure } from './render';

let bundleSent = false;
let shown = 0;

function figureId(fig: Figure): string {
  // Deterministic ids keep executed notebooks byte-stable across runs.
  return `schedlab-fig-${shown}-${hashString(JSON.stringify(fig)).toString(16)}`;
}

/** HTML for one chart: the static image, replaced by the live chart where scripts run. */
export function figureHtml(fig: Figure, pngBase64: string, id: string, withBundle: boolean): string {
  const alt = String((fig.layout.title as { text?: string } | undefined)?.text ?? 'chart').replace(/"/g, '&quot;');
  const spec = JSON.stringify({ data: fig.data, layout: { ...fig.layout, width: fig.width, height: fig.height } }).replace(/<\//g, '<\\/');
  const bundle = withBundle ? `<script>${fs.readFileSync(plotlyBundlePath(), 'utf8').replace(/<\/script/gi, '<\\/script')}</script>\n` : '';
  return (
    bundle +
    `<div id="${id}" style="width:${fig.width}px;height:${fig.height}px">` +
    `<img alt="${alt}" width="${fig.width}" height="${fig.height}" src="data:image/png;base64,${pngBase64}"></div>\n` +
    `<script>(function(){var el=document.getElementById(${JSON.stringify(id)});var P=window.Plotly;` +
    `if(!el||!P)return;var s=${spec};el.innerHTML='';P.newPlot(el,s.data,s.layout,{displaylogo:false,responsive:false});})();</script>`
  );
}

/** Display a figure inline (interactive + static image); outside a notebook, print a note. */
export async function show(fig: Figure): Promise<void> {
  if (!inNotebook()) {
    const title = (fig.layout.title as { text?: string } | undefined)?.text ?? 'untitled';
    console.log(`[figure: ${title}; ${fig.data.length} traces — use exportFigure to write it to a file]`);
    return;
  }
  const png = (await renderFigure(fig, 'png', { scale: 1.5 })).toString('base64');
  const id = figureId(fig);
  shown++;
  const html = figureHtml(fig, png, id, !bundleSent);
  bundleSent = true;
  const title = (fig.layout.title as { text?: string } | undefined)?.text ?? 'chart';
  display({ 'text/html': html, 'image/png': png, 'text/plain': `<Figure: ${title}>` });
}
