/** Places point labels of a chart so that they overlap neither each other nor the points. */

/** An axis-aligned box. */
export interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/** A label to place next to its point. */
export interface LabelRequest {
  readonly x: number;
  readonly y: number;
  readonly text: string;
  readonly fontSize: number;
  /** Half the marker's size: the label keeps clear of it. */
  readonly radius: number;
}

/** Where a label went: its text's anchor point and alignment. */
export interface PlacedLabel {
  readonly x: number;
  readonly y: number;
  readonly anchor: 'start' | 'end' | 'middle';
  readonly box: Box;
}

/** Width of a text, estimated: an average sans-serif character is about 0.56 em wide. */
export function textWidth(text: string, fontSize: number): number {
  return text.length * fontSize * 0.56;
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

function inside(box: Box, area: Box): boolean {
  return box.left >= area.left && box.right <= area.right && box.top >= area.top && box.bottom <= area.bottom;
}

/** Candidate spots around the point, nearest first: right, left, above, below, then further out, up and down. */
function candidates(request: LabelRequest): PlacedLabel[] {
  const { x, y, text, fontSize, radius } = request;
  const width = textWidth(text, fontSize);
  const gap = radius + 3;
  const spot = (dx: number, dy: number, anchor: PlacedLabel['anchor']): PlacedLabel => {
    const left = anchor === 'start' ? x + dx : anchor === 'end' ? x + dx - width : x + dx - width / 2;
    const baseline = y + dy;
    return { x: x + dx, y: baseline, anchor, box: { left, top: baseline - fontSize * 0.8, right: left + width, bottom: baseline + fontSize * 0.25 } };
  };
  const spots: PlacedLabel[] = [spot(gap, fontSize * 0.35, 'start'), spot(-gap, fontSize * 0.35, 'end'), spot(0, -gap - 2, 'middle'), spot(0, gap + fontSize * 0.8, 'middle')];
  for (const far of [1, 2, 3, 4]) {
    const lift = far * fontSize * 1.1;
    for (const dx of [gap, gap + 3 * fontSize]) {
      spots.push(spot(dx, fontSize * 0.35 - lift, 'start'), spot(dx, fontSize * 0.35 + lift, 'start'), spot(-dx, fontSize * 0.35 - lift, 'end'), spot(-dx, fontSize * 0.35 + lift, 'end'));
    }
  }
  return spots;
}

/**
 * Places labels in order (the first ones are the most important), each at the first candidate spot that stays in the
 * area and touches no label placed before it and no point. A label that fits nowhere is left out (`undefined`).
 * @param requests - labels, most important first
 * @param points - boxes of every point drawn, which labels must not cover
 * @param area - where labels may go
 */
export function placeLabels(requests: readonly LabelRequest[], points: readonly Box[], area: Box): (PlacedLabel | undefined)[] {
  const taken: Box[] = [...points];
  return requests.map((request) => {
    const placed = candidates(request).find((spot) => inside(spot.box, area) && !taken.some((box) => overlaps(box, spot.box)));
    if (placed !== undefined) taken.push(placed.box);
    return placed;
  });
}

/**
 * The point of a box nearest to a point, and how far it is: where a leader line from a marker to its label ends.
 * @param box - the label's box
 * @param x - the marker's centre
 * @param y - the marker's centre
 */
export function nearestOnBox(box: Box, x: number, y: number): { x: number; y: number; distance: number } {
  const nx = Math.min(Math.max(x, box.left), box.right);
  const ny = Math.min(Math.max(y, box.top), box.bottom);
  return { x: nx, y: ny, distance: Math.hypot(nx - x, ny - y) };
}
