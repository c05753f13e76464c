/**
 * The trade-off chart as a plain SVG document (no script, no external resource, system fonts, a white background so
 * it reads in dark mode too): false stops on healthy runs across, stuck runs caught up, one marker per configuration.
 */
import type { Family } from './configurations.js';
import { drawLegend } from './pareto-legend.js';
import { escapeXml, FAMILY_STYLE, fixed, FONT, marker } from './pareto-style.js';
import { nearestOnBox, placeLabels, type Box } from './label-placement.js';
import { count } from './numbers.js';

export { escapeXml, FAMILY_STYLE } from './pareto-style.js';

/** One configuration on the chart. */
export interface ParetoPoint {
  /** Healthy runs stopped early. */
  readonly falseStops: number;
  /** Stuck runs caught. */
  readonly catches: number;
  readonly label: string;
  readonly family: Family;
  /** Drawn larger, ringed and labelled first. */
  readonly highlight?: boolean | undefined;
}

/** What the axes count, for their titles and ranges. */
export interface ParetoAxes {
  readonly healthyRuns: number;
  readonly stuckRuns: number;
  readonly title: string;
}

const WIDTH = 1000;
const HEIGHT = 620;
const PLOT: Box = { left: 72, top: 48, right: 720, bottom: 560 };
/** Room between the axes and the markers at zero, so those are not cut by the frame. */
const PAD = 14;

/** The 1-2-5 values from 1 up to the first at or past `max`. */
function oneTwoFive(max: number): number[] {
  const values: number[] = [];
  for (let decade = 1; ; decade *= 10) {
    for (const step of [1, 2, 5]) {
      values.push(step * decade);
      if (step * decade >= max) return values;
    }
  }
}

/**
 * Points that coincide and belong to one family become one marker whose label names them all (`a = b`): they are
 * the same trade-off.
 */
export function mergeCoincident(points: readonly ParetoPoint[]): ParetoPoint[] {
  const merged = new Map<string, ParetoPoint>();
  for (const point of points) {
    const key = `${String(point.falseStops)},${String(point.catches)},${point.family}`;
    const first = merged.get(key);
    if (first === undefined) merged.set(key, point);
    else {
      const labels = first.highlight === true || point.highlight !== true ? [first.label, point.label] : [point.label, first.label];
      merged.set(key, { ...first, label: labels.join(' = '), highlight: first.highlight === true || point.highlight === true });
    }
  }
  return [...merged.values()];
}

function yStep(max: number): number {
  return [1, 2, 5, 10, 20, 25, 50, 100, 200, 500].find((step) => max / step <= 10) ?? Math.ceil(max / 10);
}

/** A marker where it is drawn. */
interface Spot {
  readonly point: ParetoPoint;
  readonly x: number;
  readonly y: number;
  readonly r: number;
}

/** Scales from figures to the plot's pixels. */
interface Scales {
  readonly xValues: readonly number[];
  readonly yValues: readonly number[];
  readonly sx: (value: number) => number;
  readonly sy: (value: number) => number;
}

/**
 * The x axis is logarithmic (log of 1 + false stops), so 0, 1 and 2 false stops stay apart while the step limits'
 * dozens still fit; the y axis is linear, up past every stuck run.
 */
function scales(points: readonly ParetoPoint[], axes: ParetoAxes): Scales {
  const xValues = [0, ...oneTwoFive(Math.max(10, ...points.map((point) => point.falseStops)))];
  const maxX = xValues.at(-1) ?? 10;
  const top = Math.max(1, axes.stuckRuns, ...points.map((point) => point.catches));
  const step = yStep(top);
  const maxY = Math.ceil((top + 1) / step) * step;
  const yValues = Array.from({ length: maxY / step + 1 }, (_, i) => i * step);
  return {
    xValues,
    yValues,
    sx: (value) => PLOT.left + PAD + ((PLOT.right - PLOT.left - 2 * PAD) * Math.log10(1 + value)) / Math.log10(1 + maxX),
    sy: (value) => PLOT.bottom - PAD - ((PLOT.bottom - PLOT.top - 2 * PAD) * value) / maxY,
  };
}

function drawAxes(out: string[], { xValues, yValues, sx, sy }: Scales, axes: ParetoAxes): void {
  for (const tick of xValues) {
    const x = fixed(sx(tick));
    out.push(`<line x1="${x}" y1="${String(PLOT.top)}" x2="${x}" y2="${String(PLOT.bottom)}" stroke="#e3e3e3" stroke-width="1"/>`);
    out.push(`<text x="${x}" y="${String(PLOT.bottom + 18)}" ${FONT} font-size="12" fill="#333333" text-anchor="middle">${String(tick)}</text>`);
  }
  for (const tick of yValues) {
    const y = fixed(sy(tick));
    out.push(`<line x1="${String(PLOT.left)}" y1="${y}" x2="${String(PLOT.right)}" y2="${y}" stroke="#e3e3e3" stroke-width="1"/>`);
    out.push(`<text x="${String(PLOT.left - 8)}" y="${fixed(sy(tick) + 4)}" ${FONT} font-size="12" fill="#333333" text-anchor="end">${String(tick)}</text>`);
  }
  const middle = String((PLOT.top + PLOT.bottom) / 2);
  out.push(
    `<line x1="${String(PLOT.left)}" y1="${fixed(sy(axes.stuckRuns))}" x2="${String(PLOT.right)}" y2="${fixed(sy(axes.stuckRuns))}" stroke="#999999" stroke-dasharray="4 3"/>`,
    `<rect x="${String(PLOT.left)}" y="${String(PLOT.top)}" width="${String(PLOT.right - PLOT.left)}" height="${String(PLOT.bottom - PLOT.top)}" fill="none" stroke="#333333"/>`,
    `<text x="${String((PLOT.left + PLOT.right) / 2)}" y="${String(PLOT.bottom + 42)}" ${FONT} font-size="13" fill="#000000" text-anchor="middle">false stops: healthy runs stopped early (of ${count(axes.healthyRuns)}; log scale)</text>`,
    `<text x="20" y="${middle}" ${FONT} font-size="13" fill="#000000" text-anchor="middle" transform="rotate(-90 20 ${middle})">stuck runs caught (of ${count(axes.stuckRuns)})</text>`,
  );
}

/** Where each marker goes: markers of different families on one spot are set side by side. */
function spotsOf(points: readonly ParetoPoint[], { sx, sy }: Scales): Spot[] {
  const seen = new Map<string, number>();
  return points.map((point) => {
    const key = `${String(point.falseStops)},${String(point.catches)}`;
    const nth = seen.get(key) ?? 0;
    seen.set(key, nth + 1);
    return { point, r: point.highlight === true ? 7 : 5, x: sx(point.falseStops) + nth * 9, y: sy(point.catches) };
  });
}

/** The markers, each in a group with a tooltip; highlighted ones last, so they are drawn on top. */
function drawMarkers(out: string[], spots: readonly Spot[]): void {
  const ordered = [...spots].sort((a, b) => Number(a.point.highlight === true) - Number(b.point.highlight === true));
  for (const { point, x, y, r } of ordered) {
    const style = FAMILY_STYLE[point.family];
    const ring = point.highlight === true ? 'stroke="#000000" stroke-width="2.5"' : 'stroke="#ffffff" stroke-width="1"';
    out.push(`<g><title>${escapeXml(`${point.label}: ${String(point.falseStops)} false stops, ${String(point.catches)} caught`)}</title>`);
    out.push(`${marker(style.shape, x, y, r, `fill="${style.colour}" fill-opacity="0.9" ${ring}`)}</g>`);
  }
}

/** The labels: highlighted first, then guard settings and peers, then the sweeps; one set apart gets a leader line. */
function drawLabels(out: string[], spots: readonly Spot[]): void {
  const rank = ({ point }: Spot): number => (point.highlight === true ? 0 : point.family === 'combined' || point.family === 'peer' ? 1 : 2);
  const ordered = spots.map((spot, index) => ({ spot, index })).sort((a, b) => rank(a.spot) - rank(b.spot) || a.index - b.index);
  const requests = ordered.map(({ spot }) => ({
    x: spot.x,
    y: spot.y,
    text: spot.point.label,
    fontSize: spot.point.highlight === true ? 12 : 10.5,
    radius: spot.r + 1,
  }));
  const markers = spots.map(({ x, y, r }) => ({ left: x - r - 1, top: y - r - 1, right: x + r + 1, bottom: y + r + 1 }));
  const labels = placeLabels(requests, markers, { left: PLOT.left + 2, top: PLOT.top + 2, right: PLOT.right - 2, bottom: PLOT.bottom - 2 });
  ordered.forEach(({ spot }, i) => {
    const label = labels[i];
    const request = requests[i];
    if (label === undefined || request === undefined) return;
    const end = nearestOnBox(label.box, spot.x, spot.y);
    if (end.distance > spot.r + 8) {
      const from = (spot.r + 1) / end.distance;
      const fx = spot.x + (end.x - spot.x) * from;
      const fy = spot.y + (end.y - spot.y) * from;
      out.push(`<line x1="${fixed(fx)}" y1="${fixed(fy)}" x2="${fixed(end.x)}" y2="${fixed(end.y)}" stroke="#888888" stroke-width="0.8"/>`);
    }
    const weight = spot.point.highlight === true ? ' font-weight="bold"' : '';
    out.push(
      `<text x="${fixed(label.x)}" y="${fixed(label.y)}" ${FONT} font-size="${String(request.fontSize)}"${weight} fill="#222222" text-anchor="${label.anchor}">${escapeXml(request.text)}</text>`,
    );
  });
}

/**
 * The chart: one marker per configuration (coincident ones of a family merged, see {@link mergeCoincident}), labelled
 * where room allows, with axes, grid and legend.
 * @param all - one point per configuration
 * @param axes - the totals the axes count against, and the title
 */
export function paretoSvg(all: readonly ParetoPoint[], axes: ParetoAxes): string {
  const points = mergeCoincident(all);
  const scale = scales(points, axes);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${String(WIDTH)}" height="${String(HEIGHT)}" viewBox="0 0 ${String(WIDTH)} ${String(HEIGHT)}" role="img">`,
    `<title>${escapeXml(axes.title)}</title>`,
    `<rect x="0" y="0" width="${String(WIDTH)}" height="${String(HEIGHT)}" fill="#ffffff"/>`,
    `<text x="${String(PLOT.left)}" y="28" ${FONT} font-size="16" font-weight="bold" fill="#000000">${escapeXml(axes.title)}</text>`,
  ];
  drawAxes(out, scale, axes);
  const spots = spotsOf(points, scale);
  drawMarkers(out, spots);
  drawLabels(out, spots);
  drawLegend(out, points, PLOT.right + 24, PLOT.top);
  out.push('</svg>', '');
  return out.join('\n');
}
