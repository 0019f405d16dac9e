/**
 * Comparing two renderings of a figure byte for byte, with what plotly or
 * Chromium make up afresh every time set aside: plotly's random ids in an SVG
 * (the layout's `defs-…`/`clip…` id, each trace's `trace…` class and colorbar
 * gradient `…-cb…`), numbered in order of first appearance, and a PDF's dates;
 * and where two such texts (or two charts' plotly JSON) first differ.
 */
export function svgWithoutIds(svg: string): string {
  const ids: string[] = [];
  for (const m of svg.matchAll(/(?:id="defs-|class="trace [a-z]+ trace|-cb)([0-9a-f]{6})\b/g)) if (!ids.includes(m[1])) ids.push(m[1]);
  let out = svg;
  ids.forEach((id, i) => (out = out.split(id).join(`«id${i}»`)));
  return out;
}

export function pdfWithoutDates(pdf: Buffer): string {
  return pdf.toString('latin1').replace(/\/(CreationDate|ModDate) \(D:[^)]*\)/g, '/$1 ()');
}

/**
 * Where two texts first differ, with a little of each around it (null when
 * equal): a readable failure for texts too long for a diff.
 */
export function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 60), i + 60));
  return `character ${i} of ${a.length} / ${b.length}: ${around(a)} / ${around(b)}`;
}
