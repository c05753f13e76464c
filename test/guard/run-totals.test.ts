import { describe, expect, it } from 'vitest';
import { createGuard } from '../../src/index.js';
import { addFigure, addStep, decimalPlaces, emptyTotals, multiplyFigures } from '../../src/guard/run-totals.js';
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

describe('decimal arithmetic of figures', () => {
  it.each([
    [12, 0],
    [0.25, 2],
    [1e-7, 7],
    [2.5e-10, 11],
    [1e21, 0],
    [1.5e21, 0],
    [123.456, 3],
    [5e-324, 324],
  ])('counts the decimal places of %d as %d', (value, places) => {
    expect(decimalPlaces(value)).toBe(places);
  });

  it('adds figures as decimals, integers exactly, and stops at the largest finite number', () => {
    let total = 0;
    for (let step = 0; step < 10; step++) total = addFigure(total, 0.1);
    expect(total).toBe(1);
    expect(addFigure(0.1, 0.2)).toBe(0.3);
    expect(addFigure(2 ** 52, 1)).toBe(2 ** 52 + 1);
    expect(addFigure(Number.MAX_VALUE, Number.MAX_VALUE)).toBe(Number.MAX_VALUE);
    expect(addFigure(Number.MAX_VALUE, 0.5)).toBe(Number.MAX_VALUE);
    // Past 100 decimal places there is nothing left to round: the double sum stands.
    expect(addFigure(5e-324, 5e-324)).toBe(1e-323);
  });

  it('multiplies figures as decimals', () => {
    expect(multiplyFigures(0.1, 3)).toBe(0.3);
    expect(multiplyFigures(0.9, 1)).toBe(0.9);
    expect(multiplyFigures(3, 4)).toBe(12);
    expect(multiplyFigures(0.07, 0.3)).toBe(0.021);
    expect(multiplyFigures(1e300, 1e300)).toBe(Number.MAX_VALUE);
  });
});
