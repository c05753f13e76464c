import { describe, expect, it } from 'vitest';
import { LAYOUT_KEYS_LIMIT, memberLayout } from '../src/member-layout.js';

describe('memberLayout', () => {
  it('sorts members and gives each its quoted prefix, leaving the keys as they were', () => {
    const keys = ['b', 'a"'];
    const layout = memberLayout(keys, 0);
    expect(layout.members).toEqual([
      { key: 'a"', prefix: '"a\\"":' },
      { key: 'b', prefix: '"b":' },
    ]);
    expect(keys).toEqual(['b', 'a"']);
  });

  it('reuses the last layout at a depth only for the same keys in the same order', () => {
    const first = memberLayout(['x', 'y'], 3);
    expect(memberLayout(['x', 'y'], 3)).toBe(first);
    expect(memberLayout(['x', 'y'], 4)).not.toBe(first);
    const reordered = memberLayout(['y', 'x'], 3);
    expect(reordered).not.toBe(first);
    expect(reordered.members.map((member) => member.key)).toEqual(['x', 'y']);
    expect(memberLayout(['y', 'z'], 3).members.map((member) => member.key)).toEqual(['y', 'z']);
    expect(memberLayout(['y'], 3).members.map((member) => member.key)).toEqual(['y']);
  });

  it('documents its size limit', () => {
    expect(LAYOUT_KEYS_LIMIT).toBe(64);
  });
});
