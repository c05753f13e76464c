import { describe, expect, it } from 'vitest';
import { nearestOnBox, placeLabels, textWidth } from '../../eval/label-placement.js';

const AREA = { left: 0, top: 0, right: 400, bottom: 300 };

describe('placeLabels', () => {
  it('puts a lone label right of its point, clear of the marker', () => {
    const [label] = placeLabels([{ x: 100, y: 100, text: 'abc', fontSize: 10, radius: 5 }], [], AREA);
    expect(label?.anchor).toBe('start');
    expect(label?.box.left).toBeGreaterThan(105);
  });

  it('moves a label that would leave the area or cover another', () => {
    const [edge] = placeLabels([{ x: 395, y: 100, text: 'long label', fontSize: 10, radius: 5 }], [], AREA);
    expect(edge?.anchor).toBe('end');
    const [first, second] = placeLabels(
      [
        { x: 100, y: 100, text: 'first', fontSize: 10, radius: 5 },
        { x: 100, y: 100, text: 'second', fontSize: 10, radius: 5 },
      ],
      [],
      AREA,
    );
    expect(first && second && (second.box.left >= first.box.right || second.box.right <= first.box.left || second.box.top >= first.box.bottom || second.box.bottom <= first.box.top)).toBe(true);
  });

  it('leaves out a label that fits nowhere', () => {
    expect(placeLabels([{ x: 5, y: 5, text: 'x'.repeat(100), fontSize: 10, radius: 5 }], [], { left: 0, top: 0, right: 20, bottom: 20 })).toEqual([undefined]);
  });
});

describe('geometry helpers', () => {
  it('estimate text width and find the nearest point of a box', () => {
    expect(textWidth('abcd', 10)).toBeCloseTo(22.4);
    expect(nearestOnBox({ left: 10, top: 0, right: 20, bottom: 5 }, 0, 2)).toEqual({ x: 10, y: 2, distance: 10 });
  });
});
