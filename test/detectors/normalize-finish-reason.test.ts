import { describe, expect, it } from 'vitest';
import { normalizeFinishReason } from '../../src/detectors/normalize-finish-reason.js';
import { MAX_NORMALIZED_TEXT, preview } from '../../src/guard/normalize-text.js';

describe('normalizeFinishReason', () => {
  it('trims, lower-cases and writes underscores as hyphens', () => {
    expect(normalizeFinishReason(' TOOL_CALLS\n')).toBe('tool-calls');
    expect(normalizeFinishReason('End_Turn')).toBe('end-turn');
  });

  it('normalises finish reasons built to make a backtracking expression go quadratic', () => {
    const half = 512 * 1024;
    expect(normalizeFinishReason(`${' '.repeat(half)}TOOL_CALLS${'\t'.repeat(half)}`)).toBe('tool-calls');
    expect(normalizeFinishReason(`_${' x'.repeat(half)}`)).toBe(`-${' x'.repeat(half)}`);
  });

  it('normalises a reason as long as a text may be whole, and a longer one from its start, as a preview', () => {
    const whole = `_${'A'.repeat(MAX_NORMALIZED_TEXT - 1)}`;
    expect(normalizeFinishReason(` ${whole} `)).toBe(`-${'a'.repeat(MAX_NORMALIZED_TEXT - 1)}`);
    const longer = `${whole}B`;
    expect(normalizeFinishReason(` ${longer} `)).toBe(preview(`-${'a'.repeat(MAX_NORMALIZED_TEXT)}`, MAX_NORMALIZED_TEXT));
  });
});
