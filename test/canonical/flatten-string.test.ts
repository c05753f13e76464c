import { describe, expect, it } from 'vitest';
import { flattenString } from '../../src/canonical/flatten-string.js';

describe('flattenString', () => {
  it('returns the same text, built from pieces or not, empty included', () => {
    const pieces = ['"search"', '{"query":"a"}', '\u0000r', '#2047:', 'f'.repeat(28)];
    const joined = pieces.reduce((text, piece) => text + piece, '');
    expect(flattenString(joined)).toBe(pieces.join(''));
    expect(flattenString('')).toBe('');
    expect(flattenString('\ud83d\ude00x')).toBe('\ud83d\ude00x');
  });
});
