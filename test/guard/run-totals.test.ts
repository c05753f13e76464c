import { describe, expect, it } from 'vitest';
import type { RunTotals } from '../../src/detectors/detector.js';
import { createGuard } from '../../src/index.js';
import { addStep, copySums, emptySums } from '../../src/guard/run-totals.js';
import { expectPlainJson } from '../support/plain-json.js';

const HUGE = Number.MAX_VALUE;

function totalsAfter(...steps: Parameters<typeof addStep>[2][]): RunTotals {
  const sums = emptySums();
  const totals: RunTotals = { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, durationMs: 0 };
  for (const step of steps) addStep(sums, totals, step);
  return totals;
}

describe('run totals never overflow to Infinity', () => {
  it('stops each total at the largest finite number', () => {
    const step = { usage: { inputTokens: HUGE, outputTokens: HUGE, costUsd: HUGE }, durationMs: HUGE };
    expect(totalsAfter(step, step)).toEqual({ inputTokens: HUGE, outputTokens: HUGE, totalTokens: HUGE, costUsd: HUGE, durationMs: HUGE });
  });

  it('caps the input plus output fallback of a single step', () => {
    expect(totalsAfter({ usage: { inputTokens: HUGE, outputTokens: HUGE } }).totalTokens).toBe(HUGE);
  });

  it('adds input plus output for a step without totalTokens, and totalTokens when given', () => {
    expect(
      totalsAfter({ usage: { inputTokens: 1, outputTokens: 2, totalTokens: 4, costUsd: 0.25 }, durationMs: 7 }, { usage: { inputTokens: 10 }, durationMs: 3 }),
    ).toEqual({ inputTokens: 11, outputTokens: 2, totalTokens: 14, costUsd: 0.25, durationMs: 10 });
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

  it('copies sums that then add on their own', () => {
    const sums = emptySums();
    const totals: RunTotals = { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, durationMs: 0 };
    addStep(sums, totals, { usage: { costUsd: 0.1 } });
    const copy = copySums(sums);
    addStep(copy, totals, { usage: { costUsd: 0.2 } });
    expect(totals.costUsd).toBe(0.3);
    expect(sums.costUsd.value).toBe(0.1);
  });
});
