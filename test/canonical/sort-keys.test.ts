import { describe, expect, it } from 'vitest';
import { sortKeys } from '../../src/canonical/sort-keys.js';

describe('sortKeys', () => {
  it('sorts in place by UTF-16 code unit order', () => {
    const keys = ['b', 'a', '10', '9', 'B', 'é', '\u{1F600}', '\uffff', 'aa', ''];
    expect(sortKeys(keys)).toBe(keys);
    expect(keys).toEqual(['', '10', '9', 'B', 'a', 'aa', 'b', 'é', '\u{1F600}', '\uffff']);
  });

  it('agrees with the native sort at every size, both sides of the insertion sort limit', () => {
    for (const size of [0, 1, 2, 3, 23, 24, 25, 26, 100]) {
      const keys = Array.from({ length: size }, (_, index) => `k${String((index * 7919) % 101)}`);
      expect(sortKeys([...keys])).toEqual([...keys].sort());
    }
  });
});
