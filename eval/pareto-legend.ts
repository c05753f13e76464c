/** The trade-off chart's legend. */
import type { Family } from './configurations.js';
import { escapeXml, FAMILY_STYLE, FONT, marker } from './pareto-style.js';
import type { ParetoPoint } from './pareto-svg.js';

/** The legend: the families present, then what the ring, the dashed line and the labels mean. */
/**
 * @param out - the SVG's lines, added to
 * @param points - the chart's points, for the families present
 * @param left - where the legend starts, right of the plot
 * @param top - the plot's top
 */
export function drawLegend(out: string[], points: readonly ParetoPoint[], left: number, top: number): void {
  const families = (Object.keys(FAMILY_STYLE) as Family[]).filter((family) => points.some((point) => point.family === family));
  const lx = left;
  let y = top + 8;
  const text = (content: string, dx = 18, colour = '#000000'): void => {
    out.push(`<text x="${String(lx + dx)}" y="${String(y)}" ${FONT} font-size="12" fill="${colour}">${escapeXml(content)}</text>`);
  };
  out.push(`<text x="${String(lx)}" y="${String(y)}" ${FONT} font-size="13" font-weight="bold" fill="#000000">Legend</text>`);
  for (const family of families) {
    y += 22;
    const style = FAMILY_STYLE[family];
    out.push(marker(style.shape, lx + 6, y - 4, 5, `fill="${style.colour}"`));
    text(style.legend);
  }
  y += 26;
  out.push(marker('square', lx + 6, y - 4, 6, 'fill="#000000" stroke="#000000" stroke-width="2.5"'));
  text('ringed: the shipped defaults,');
  y += 16;
  text('with maxSteps 50 and off');
  y += 22;
  out.push(`<line x1="${String(lx)}" y1="${String(y - 4)}" x2="${String(lx + 12)}" y2="${String(y - 4)}" stroke="#999999" stroke-dasharray="4 3"/>`);
  text('every stuck run');
  y += 30;
  for (const line of ['Up and to the left is better.', '"a = b": same false stops', 'and catches.', 'stag W/N: window W, maxNew N.']) {
    text(line, 0, '#444444');
    y += 16;
  }
}
