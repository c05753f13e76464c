import { describe, expect, it } from 'vitest';
import { createGuard } from '../../src/index.js';
import { addStep, emptyTotals } from '../../src/guard/run-totals.js';
import { expectPlainJson } from '../support/plain-json.js';

const HUGE = Number.MAX_VALUE;

describe('run totals never overflow to Infinity', () => {
  it('stops each total at the largest finite number', () => {
    const totals = emptyTotals();
    const step = { usage: { inputTokens: HUGE, outputTokens: HUGE, costUsd: HUGE }, durationMs: HUGE };
    addStep(totals, step);
    addStep(totals, step);
    expect(totals).toEqual({ inputTokens: HUGE, outputTokens: HUGE, totalTokens: HUGE, costUsd: HUGE, durationMs: HUGE });
  });

  it('caps the input plus output fallback of a single step', () => {
    const totals = emptyTotals();
    addStep(totals, { usage: { inputTokens: HUGE, outputTokens: HUGE } });
    expect(totals.totalTokens).toBe(HUGE);
  });

  it('keeps exact sums below the cap', () => {
    const totals = emptyTotals();
    addStep(totals, { usage: { inputTokens: 1, outputTokens: 2, totalTokens: 4, costUsd: 0.25 }, durationMs: 7 });
    addStep(totals, { usage: { inputTokens: 10 }, durationMs: 3 });
    expect(totals).toEqual({ inputTokens: 11, outputTokens: 2, totalTokens: 14, costUsd: 0.25, durationMs: 10 });
  });

  it('keeps summaries and budget evidence plain JSON after huge usage', () => {
    const guard = createGuard({ budget: { maxTotalTokens: 1e300 }, now: () => 0 });
    expect(guard.check({ usage: { totalTokens: HUGE } })).toMatchObject({
      stop: true,
      code: 'BUDGET_TOTAL_TOKENS',
      evidence: { metric: 'totalTokens', value: HUGE, limit: 1e300 },
    });
    const verdict = guard.check({ usage: { inputTokens: HUGE } });
    expect(verdict).toMatchObject({ stop: true, evidence: { value: HUGE } });
    expectPlainJson(verdict);
    expectPlainJson(guard.summary());
    expect(guard.summary().totals).toEqual({ inputTokens: HUGE, outputTokens: 0, totalTokens: HUGE, costUsd: 0, durationMs: 0 });
  });
});
