/**
 * Whether figures are drawn as images: `SCHEDLAB_IMAGES=on` (the default) or
 * `off`. With images off, `show(fig)` sends the chart's plotly spec and its
 * text but no PNG, `saveFigure`/`exportFigure` write the spec as
 * `<stem>.json` instead of SVG/PNG/PDF, and Chromium is never started: for
 * machines without Chromium (cluster nodes), runs where only the tables
 * matter, and the test suite's second (determinism) execution.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Figure } from './charts';
import { makeFolder, UsageError } from '../util/errors';

/** The two values of SCHEDLAB_IMAGES. */
export type ImagesMode = 'on' | 'off';

/** SCHEDLAB_IMAGES's value as a mode: unset or empty is `on`; anything but on/off is a UsageError naming the variable. */
export function parseImagesMode(value: string | undefined): ImagesMode {
  if (value === undefined || value === '' || value === 'on') return 'on';
  if (value === 'off') return 'off';
  throw new UsageError(`SCHEDLAB_IMAGES must be "on" or "off", got "${value}"`, { source: 'SCHEDLAB_IMAGES' });
}

let mode: ImagesMode | undefined;

/** The process's images mode, read from SCHEDLAB_IMAGES on first use (a kernel keeps the mode it started with). */
export function imagesMode(): ImagesMode {
  return (mode ??= parseImagesMode(process.env.SCHEDLAB_IMAGES));
}

/** A figure as plotly's own JSON (`data`, `layout` with the figure's size, `config`): what `show` sends and the `.json` file holds. */
export function figureSpec(fig: Figure): { data: unknown[]; layout: Record<string, unknown>; config: Record<string, unknown> } {
  // JSON round trip: plotly traces may hold `undefined` fields, which JSON drops anyway.
  return JSON.parse(JSON.stringify({ data: fig.data, layout: { ...fig.layout, width: fig.width, height: fig.height }, config: { displaylogo: false, responsive: false } }));
}

/** Write a figure's plotly spec to `<base>.json` (an image extension on `base` is dropped); returns the path. */
export function writeFigureSpec(fig: Figure, base: string): string {
  const file = `${base.replace(/\.(svg|png|pdf|json)$/i, '')}.json`;
  makeFolder(path.dirname(path.resolve(file)));
  fs.writeFileSync(file, JSON.stringify(figureSpec(fig), null, 1) + '\n');
  return file;
}
