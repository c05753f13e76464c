import { describe, expect, it } from 'vitest';
import { addTotals, addUsage, emptyUsage } from '../../src/cli/step-usage.js';
import type { GuardStep } from '../../src/index.js';

describe('addUsage', () => {
  it('counts steps and sums the usable figures, falling back to input plus output for total tokens', () => {
    const steps = [
      { usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.5 } },
      { usage: { inputTokens: 1, outputTokens: 2, totalTokens: 50 } },
      { usage: { inputTokens: Number.NaN, outputTokens: -4, totalTokens: Number.POSITIVE_INFINITY, costUsd: '1' } },
      { text: 'no usage' },
      { usage: null },
    ] as unknown as GuardStep[];
    expect(addUsage(emptyUsage(), steps)).toEqual({ steps: 5, inputTokens: 101, outputTokens: 12, totalTokens: 160, costUsd: 0.5 });
  });

  it('adds to the totals it is given', () => {
    const totals = { steps: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: 1 };
    expect(addUsage(totals, [{ usage: { inputTokens: 1 } }])).toBe(totals);
    expect(totals).toEqual({ steps: 2, inputTokens: 2, outputTokens: 1, totalTokens: 3, costUsd: 1 });
  });
});

describe('addTotals', () => {
  it('adds every field', () => {
    const totals = { steps: 1, inputTokens: 2, outputTokens: 3, totalTokens: 4, costUsd: 5 };
    expect(addTotals(totals, { steps: 10, inputTokens: 20, outputTokens: 30, totalTokens: 40, costUsd: 50 })).toBe(totals);
    expect(totals).toEqual({ steps: 11, inputTokens: 22, outputTokens: 33, totalTokens: 44, costUsd: 55 });
  });
});
