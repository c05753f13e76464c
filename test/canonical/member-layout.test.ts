import { describe, expect, it } from 'vitest';
import { LAYOUT_KEYS_LIMIT, memberLayout } from '../../src/canonical/member-layout.js';

const keysOf = (layout: ReturnType<typeof memberLayout>): readonly string[] => layout.keys;

describe('memberLayout', () => {
  it('sorts members and gives each its quoted prefix, leaving the keys as they were', () => {
    const keys = ['b', 'a"'];
    const layout = memberLayout(keys, 0);
    expect(layout.keys).toEqual(['a"', 'b']);
    expect(layout.prefixes).toEqual(['"a\\"":', '"b":']);
    expect(keys).toEqual(['b', 'a"']);
  });

  it('reuses a layout only for the same keys in the same order, at any depth', () => {
    const first = memberLayout(['x', 'y'], 3);
    expect(memberLayout(['x', 'y'], 3)).toBe(first);
    expect(memberLayout(['x', 'y'], 9)).toBe(first);
    const reordered = memberLayout(['y', 'x'], 3);
    expect(reordered).not.toBe(first);
    expect(keysOf(reordered)).toEqual(['x', 'y']);
    expect(keysOf(memberLayout(['x', 'z'], 3))).toEqual(['x', 'z']);
    expect(keysOf(memberLayout(['x'], 3))).toEqual(['x']);
    expect(keysOf(memberLayout(['x', 'y', 'z'], 3))).toEqual(['x', 'y', 'z']);
  });

  it('remembers shapes that alternate at one depth', () => {
    const user = memberLayout(['login', 'id'], 5);
    const labels = memberLayout(['name', 'color'], 5);
    expect(memberLayout(['login', 'id'], 5)).toBe(user);
    expect(memberLayout(['name', 'color'], 5)).toBe(labels);
  });

  it('keeps four layouts per first key, dropping the least recent', () => {
    const shapes = ['a', 'b', 'c', 'd', 'e'].map((second) => ['first', second]);
    const built = shapes.map((keys, index) => memberLayout(keys, 20 + index));
    expect(memberLayout(shapes[4] ?? [], 30)).toBe(built[4]);
    expect(memberLayout(shapes[1] ?? [], 31)).toBe(built[1]);
    const rebuilt = memberLayout(shapes[0] ?? [], 32);
    expect(rebuilt).not.toBe(built[0]);
    expect(rebuilt).toEqual(built[0]);
  });

  it('starts over when it holds 512 first keys', () => {
    const early = memberLayout(['early', 'shape'], 40);
    for (let index = 0; index < 512; index++) memberLayout([`filler${String(index)}`], 41);
    const again = memberLayout(['early', 'shape'], 42);
    expect(again).not.toBe(early);
    expect(again).toEqual(early);
  });

  it('does not remember layouts with a very long key', () => {
    const keys = ['k'.repeat(257), 'a'];
    const first = memberLayout(keys, 50);
    expect(keysOf(first)).toEqual(['a', 'k'.repeat(257)]);
    expect(memberLayout(keys, 50)).not.toBe(first);
    const justShortEnough = ['j'.repeat(256)];
    expect(memberLayout(justShortEnough, 51)).toBe(memberLayout(justShortEnough, 51));
  });

  it('documents its size limit', () => {
    expect(LAYOUT_KEYS_LIMIT).toBe(64);
  });

  it('gives an object with more keys than that a layout of its own: sorted in place, no prefixes, not remembered', () => {
    const keys = Array.from({ length: LAYOUT_KEYS_LIMIT + 1 }, (_, index) => `k${String(LAYOUT_KEYS_LIMIT - index)}`);
    const expected = [...keys].sort();
    const layout = memberLayout(keys, 60);
    expect(layout.keys).toBe(keys);
    expect(layout.keys).toEqual(expected);
    expect(layout.prefixes).toEqual([]);
    expect(memberLayout([...keys], 60)).not.toBe(layout);
    const fits = keys.slice(1);
    expect(memberLayout(fits, 61).prefixes).toHaveLength(LAYOUT_KEYS_LIMIT);
  });
});
