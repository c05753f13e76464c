import { describe, expect, it } from 'vitest';
import * as limits from '../../src/canonical/limits.js';

describe('the documented limits', () => {
  it('have the values the canonicalize TSDoc and the README state', () => {
    expect(limits.DEFAULT_LIMITS).toEqual({
      maxDepth: 64,
      maxValues: 200_000,
      maxCharacters: 16_777_216,
      longStringLength: 1_048_576,
      rawStringLength: 1024,
      maxBigIntBits: 65_536,
      stepValues: 2_000_000,
      stepCharacters: 67_108_864,
    });
    expect([limits.MAX_DEPTH, limits.MAX_VALUES, limits.MAX_CHARACTERS, limits.LONG_STRING_LENGTH]).toEqual([
      64, 200_000, 2 ** 24, 2 ** 20,
    ]);
    expect([limits.RAW_STRING_LENGTH, limits.MAX_BIGINT_BITS, limits.STEP_VALUES, limits.STEP_CHARACTERS]).toEqual([
      1024, 65_536, 2_000_000, 2 ** 26,
    ]);
    expect([limits.MAX_DEPTH_MARKER, limits.TRUNCATED_MARKER]).toEqual(['[MaxDepth]', '[Truncated]']);
    expect(Object.isFrozen(limits.DEFAULT_LIMITS)).toBe(true);
  });
});
