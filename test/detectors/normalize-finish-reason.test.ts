import { describe, expect, it } from 'vitest';
import { normalizeFinishReason } from '../../src/detectors/normalize-finish-reason.js';

describe('normalizeFinishReason', () => {
  it('normalises finish reasons built to make a backtracking expression go quadratic', () => {
    const half = 512 * 1024;
    expect(normalizeFinishReason(`${' '.repeat(half)}TOOL_CALLS${'\t'.repeat(half)}`)).toBe('tool-calls');
    expect(normalizeFinishReason(`_${' x'.repeat(half)}`)).toBe(`-${' x'.repeat(half)}`);
  });
});
