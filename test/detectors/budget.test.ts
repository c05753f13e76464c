import { describe, expect, it } from 'vitest';
import { type BudgetOptions, createGuard } from '../../src/index.js';
import { ALL_OFF, factsOf } from '../support/step-builder.js';
import { budget, type BudgetLimitOptions } from '../../src/detectors/budget.js';

function guardWith(budget: BudgetOptions, now: () => number = () => 0) {
  return createGuard({ ...ALL_OFF, budget, now });
}

describe('budget', () => {
  it('has no limits by default', () => {
    const guard = createGuard({ ...ALL_OFF, budget: {} });
    expect(guard.check({ usage: { totalTokens: 1e12, costUsd: 1e9 }, durationMs: 1e12 })).toEqual({ stop: false });
    expect(createGuard({ ...ALL_OFF }).check({ usage: { totalTokens: 1e12 } })).toEqual({ stop: false });
  });

  it('a limit is spent when reached: just below continues, equal stops', () => {
    const guard = guardWith({ maxTotalTokens: 100 });
    expect(guard.check({ usage: { totalTokens: 99 } })).toEqual({ stop: false });
    expect(guard.check({ usage: { totalTokens: 1 } })).toEqual({
      stop: true,
      reason: 'budget',
      code: 'BUDGET_TOTAL_TOKENS',
      detail: 'Total tokens reached 100, at or over the limit of 100.',
      evidence: { metric: 'totalTokens', value: 100, limit: 100 },
    });
  });

  it('total tokens fall back to input plus output when a step gives none', () => {
    const guard = guardWith({ maxTotalTokens: 30 });
    expect(guard.check({ usage: { inputTokens: 10, outputTokens: 5 } }).stop).toBe(false);
    expect(guard.check({ usage: { inputTokens: 10, totalTokens: 14 } }).stop).toBe(false);
    expect(guard.check({ usage: { outputTokens: 1 } })).toMatchObject({ evidence: { value: 30 } });
  });

  it.each([
    ['maxInputTokens', 'inputTokens', 'BUDGET_INPUT_TOKENS', 'Input tokens'],
    ['maxOutputTokens', 'outputTokens', 'BUDGET_OUTPUT_TOKENS', 'Output tokens'],
    ['maxCostUsd', 'costUsd', 'BUDGET_COST_USD', 'Cost in USD'],
  ] as const)('%s sums %s and stops with %s', (option, metric, code, label) => {
    const guard = guardWith({ [option]: 1 });
    expect(guard.check({ usage: { [metric]: 0.5 } }).stop).toBe(false);
    expect(guard.check({ usage: { [metric]: 0.75 } })).toEqual({
      stop: true,
      reason: 'budget',
      code,
      detail: `${label} reached 1.25, at or over the limit of 1.`,
      evidence: { metric, value: 1.25, limit: 1 },
    });
  });

  it('ignores numbers that are not finite and non-negative', () => {
    const guard = guardWith({ maxTotalTokens: 10, maxCostUsd: 1 });
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -5]) {
      expect(guard.check({ usage: { totalTokens: bad, costUsd: bad } })).toEqual({ stop: false });
    }
    // A count given as text is a caller's mistake: not counted, and named once per run.
    const text = '9' as unknown as number;
    expect(guard.check({ usage: { totalTokens: text, costUsd: text } })).toEqual({
      stop: false,
      warnings: [
        {
          code: 'INPUT_SHAPE',
          field: 'usage.totalTokens',
          detail: 'The step\'s "usage.totalTokens" was not read: a number given as text counts for nothing; pass a number.',
        },
        {
          code: 'INPUT_SHAPE',
          field: 'usage.costUsd',
          detail: 'The step\'s "usage.costUsd" was not read: a number given as text counts for nothing; pass a number.',
        },
      ],
    });
    expect(guard.check({ usage: { totalTokens: text, costUsd: text } })).toEqual({ stop: false });
    expect(guard.summary().totals).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: 0, durationMs: 0 });
  });

  describe('maxDurationMs', () => {
    it('sums step durations', () => {
      const guard = guardWith({ maxDurationMs: 1000 });
      expect(guard.check({ durationMs: 600 }).stop).toBe(false);
      expect(guard.check({ durationMs: 400 })).toEqual({
        stop: true,
        reason: 'budget',
        code: 'BUDGET_DURATION_MS',
        detail: 'Duration in ms reached 1000, at or over the limit of 1000.',
        evidence: { metric: 'durationMs', value: 1000, limit: 1000 },
      });
    });

    it('uses wall-clock time since creation from now() when it is larger', () => {
      let clock = 5_000;
      const guard = guardWith({ maxDurationMs: 1000 }, () => clock);
      clock = 5_999;
      expect(guard.check({ durationMs: 10 }).stop).toBe(false);
      clock = 6_000;
      expect(guard.check({ durationMs: 10 })).toMatchObject({ stop: true, evidence: { value: 1000 } });
    });

    it('restarts the clock on reset', () => {
      let clock = 0;
      const guard = guardWith({ maxDurationMs: 1000 }, () => clock);
      clock = 2_000;
      expect(guard.check({}).stop).toBe(true);
      guard.reset();
      expect(guard.check({}).stop).toBe(false);
      clock = 3_000;
      expect(guard.check({}).stop).toBe(true);
    });

    it('treats a clock that returns garbage as no elapsed time', () => {
      const guard = guardWith({ maxDurationMs: 1000 }, () => Number.NaN);
      expect(guard.check({ durationMs: 999 }).stop).toBe(false);
    });
  });

  it('checks limits in the order total, input, output, cost, duration; the first reached wins', () => {
    const guard = guardWith({ maxDurationMs: 1, maxCostUsd: 1, maxOutputTokens: 1, maxInputTokens: 1, maxTotalTokens: 1 });
    expect(guard.check({ usage: { inputTokens: 5, outputTokens: 5, costUsd: 5 }, durationMs: 5 })).toMatchObject({
      code: 'BUDGET_TOTAL_TOKENS',
    });
    const later = guardWith({ maxCostUsd: 1, maxDurationMs: 1 });
    expect(later.check({ usage: { costUsd: 5 }, durationMs: 5 })).toMatchObject({ code: 'BUDGET_COST_USD' });
  });

  describe('warnAt', () => {
    it('warns at or past the ratio, below the limit, on every step while it applies', () => {
      const guard = guardWith({ maxCostUsd: { limit: 1, warnAt: 0.8 } });
      expect(guard.check({ usage: { costUsd: 0.79 } })).toEqual({ stop: false });
      const warning = {
        code: 'BUDGET_WARNING',
        metric: 'costUsd',
        value: 0.8,
        limit: 1,
        ratio: 0.8,
        detail: 'Cost in USD is at 0.8 of a 1 limit (80%).',
      };
      expect(guard.check({ usage: { costUsd: 0.01 } })).toEqual({ stop: false, warnings: [{ ...warning, value: 0.8, ratio: 0.8 }] });
      expect(guard.check({ usage: { costUsd: 0.1 } })).toMatchObject({ stop: false, warnings: [{ code: 'BUDGET_WARNING', ratio: 0.9 }] });
      expect(guard.check({ usage: { costUsd: 0.1 } })).toEqual({
        stop: true,
        reason: 'budget',
        code: 'BUDGET_COST_USD',
        detail: 'Cost in USD reached 1, at or over the limit of 1.',
        evidence: { metric: 'costUsd', value: 1, limit: 1 },
      });
    });

    it('a shared warnAt applies to limits without their own; a limit of its own overrides it', () => {
      const guard = guardWith({ warnAt: 0.5, maxInputTokens: 100, maxOutputTokens: { limit: 100, warnAt: 0.9 } });
      const verdict = guard.check({ usage: { inputTokens: 50, outputTokens: 60 } });
      expect(verdict).toEqual({
        stop: false,
        warnings: [
          {
            code: 'BUDGET_WARNING',
            metric: 'inputTokens',
            value: 50,
            limit: 100,
            ratio: 0.5,
            detail: 'Input tokens is at 50 of a 100 limit (50%).',
          },
        ],
      });
    });

    it('without warnAt no warnings are given', () => {
      const guard = guardWith({ maxTotalTokens: 100 });
      expect(guard.check({ usage: { totalTokens: 99 } })).toEqual({ stop: false });
    });

    it('a stop verdict carries warnings for other limits', () => {
      const guard = guardWith({ maxInputTokens: 10, maxCostUsd: { limit: 1, warnAt: 0.5 } });
      expect(guard.check({ usage: { inputTokens: 10, costUsd: 0.6 } })).toMatchObject({
        stop: true,
        code: 'BUDGET_INPUT_TOKENS',
        warnings: [{ metric: 'costUsd', value: 0.6, ratio: 0.6 }],
      });
    });

    it('warnings ride along on stops by other detectors', () => {
      const guard = createGuard({ ...ALL_OFF, maxSteps: 1, budget: { maxCostUsd: { limit: 1, warnAt: 0.5 } } });
      expect(guard.check({ usage: { costUsd: 0.5 } })).toMatchObject({
        stop: true,
        reason: 'max-steps',
        warnings: [{ code: 'BUDGET_WARNING', metric: 'costUsd' }],
      });
    });
  });

  it('rounds figures in the detail only, never in evidence', () => {
    const guard = guardWith({ maxCostUsd: 0.3 });
    guard.check({ usage: { costUsd: 0.123456 } });
    guard.check({ usage: { costUsd: 0.123456 } });
    const verdict = guard.check({ usage: { costUsd: 0.123456 } });
    expect(verdict).toMatchObject({ detail: 'Cost in USD reached 0.3704, at or over the limit of 0.3.' });
    expect(verdict.stop && verdict.reason === 'budget' && verdict.evidence.value).toBe(0.370368);
  });

  it('reports its limits (nothing time-dependent) in the summary', () => {
    const guard = guardWith({ maxCostUsd: { limit: 2, warnAt: 0.5 }, maxDurationMs: 10 });
    expect(guard.summary().detectors.budget).toEqual({
      limits: [
        { metric: 'costUsd', limit: 2 },
        { metric: 'durationMs', limit: 10 },
      ],
    });
  });
});

const totals = { inputTokens: 0, outputTokens: 0, totalTokens: 5, costUsd: 0, durationMs: 0 };

describe('budget: figures add up as decimals', () => {
  it('warns at $0.90 and stops at $1.00 after ten steps of $0.10, not one step late', () => {
    const guard = guardWith({ maxCostUsd: { limit: 1, warnAt: 0.9 } });
    const verdicts = Array.from({ length: 10 }, () => guard.check({ usage: { costUsd: 0.1 } }));
    expect(verdicts.slice(0, 8).every((verdict) => verdict.warnings === undefined && !verdict.stop)).toBe(true);
    expect(verdicts[8]).toEqual({
      stop: false,
      warnings: [{ code: 'BUDGET_WARNING', metric: 'costUsd', value: 0.9, limit: 1, ratio: 0.9, detail: 'Cost in USD is at 0.9 of a 1 limit (90%).' }],
    });
    expect(verdicts[9]).toMatchObject({ stop: true, code: 'BUDGET_COST_USD', evidence: { metric: 'costUsd', value: 1, limit: 1 } });
    expect(guard.summary().totals.costUsd).toBe(1);
  });

  it('starts warnings at the decimal product of warnAt and the limit: 0.1 of 3 is 0.3', () => {
    const guard = guardWith({ maxCostUsd: { limit: 3, warnAt: 0.1 } });
    expect(guard.check({ usage: { costUsd: 0.2 } })).toEqual({ stop: false });
    expect(guard.check({ usage: { costUsd: 0.1 } })).toMatchObject({ stop: false, warnings: [{ value: 0.3 }] });
  });

  it.each([
    ['durations', { maxDurationMs: 0.3 }, { durationMs: 0.1 }, 'BUDGET_DURATION_MS'],
    ['total tokens given as fractions', { maxTotalTokens: 0.3 }, { usage: { totalTokens: 0.1 } }, 'BUDGET_TOTAL_TOKENS'],
  ])('reaches a limit on %s exactly when the decimal total does', (_label, budget, step, code) => {
    const guard = guardWith(budget);
    expect(guard.check(step).stop).toBe(false);
    expect(guard.check(step).stop).toBe(false);
    expect(guard.check(step)).toMatchObject({ stop: true, code });
  });

  it('rounds each total to 15 significant digits after every step, and adds the next step to the rounded total', () => {
    const guard = guardWith({ maxCostUsd: 1, maxTotalTokens: 2 ** 60 });
    guard.check({ usage: { costUsd: 0.2 } });
    // 0.2 + 0.6666666666666666 is 0.8666666666666666 as exact decimals; 15 digits keep 0.866666666666667.
    guard.check({ usage: { costUsd: 0.6666666666666666 } });
    expect(guard.summary().totals.costUsd).toBe(0.866666666666667);
    expect(guard.check({ usage: { costUsd: 0.133333333333333 } })).toMatchObject({ stop: true, code: 'BUDGET_COST_USD', evidence: { value: 1 } });
    // Whole numbers below 2^53 stay exact; 2^53 itself has 16 digits, and is rounded.
    guard.check({ usage: { totalTokens: 2 ** 53 } });
    expect(guard.summary().totals.totalTokens).toBe(9_007_199_254_740_990);
    guard.check({ usage: { totalTokens: 1 } });
    expect(guard.summary().totals.totalTokens).toBe(Number.MAX_SAFE_INTEGER);
    guard.check({ usage: { totalTokens: 9 } });
    expect(guard.summary().totals.totalTokens).toBe(9_007_199_254_741_000);
  });

  it('never writes Infinity in a detail, even at the largest totals', () => {
    const guard = guardWith({ maxTotalTokens: Number.MAX_VALUE });
    guard.check({ usage: { totalTokens: Number.MAX_VALUE } });
    const verdict = guard.check({ usage: { totalTokens: Number.MAX_VALUE } });
    expect(verdict).toMatchObject({
      stop: true,
      detail: 'Total tokens reached 1.7976931348623157e+308, at or over the limit of 1.7976931348623157e+308.',
    });
  });
});

describe('budget through the detector contract', () => {
  const limitsOf = (options: BudgetOptions): readonly BudgetLimitOptions[] => {
    const limits = budget.resolve(options);
    if (limits === false) throw new Error('budget is on');
    return limits;
  };

  it('gives just the state below every limit and warning', () => {
    const limits = limitsOf({ maxTotalTokens: { limit: 100, warnAt: 0.9 } });
    const judgement = budget.check(budget.start(limits), factsOf({}, 0, totals), limits);
    expect(judgement).toEqual({ state: null });
    expect(judgement.stop).toBeUndefined();
    expect(judgement.warnings).toBeUndefined();
  });

  it('gives a warning alone, without a stop', () => {
    const limits = limitsOf({ maxTotalTokens: { limit: 10, warnAt: 0.5 } });
    expect(budget.check(null, factsOf({}, 0, totals), limits)).toEqual({
      state: null,
      warnings: [{ code: 'BUDGET_WARNING', metric: 'totalTokens', value: 5, limit: 10, ratio: 0.5, detail: 'Total tokens is at 5 of a 10 limit (50%).' }],
    });
  });

  it('gives a stop without warnings, and leaves stop and reason to the guard', () => {
    const limits = limitsOf({ maxTotalTokens: { limit: 5, warnAt: 0.5 } });
    const judgement = budget.check(null, factsOf({}, 0, totals), limits);
    expect(judgement).toEqual({
      state: null,
      stop: {
        code: 'BUDGET_TOTAL_TOKENS',
        detail: 'Total tokens reached 5, at or over the limit of 5.',
        evidence: { metric: 'totalTokens', value: 5, limit: 5 },
      },
    });
    expect(judgement.warnings).toBeUndefined();
  });

  it('reads the larger of summed durations and the clock since the run started', () => {
    const limits = limitsOf({ maxDurationMs: 100 });
    const durations = { ...totals, durationMs: 40 };
    expect(budget.check(null, factsOf({}, 0, durations, 99), limits).stop).toBeUndefined();
    expect(budget.check(null, factsOf({}, 0, durations, 100), limits).stop).toMatchObject({ evidence: { value: 100 } });
    expect(budget.check(null, factsOf({}, 0, { ...totals, durationMs: 100 }, 3), limits).stop).toMatchObject({ evidence: { value: 100 } });
  });

  it('keeps no state, judges no call before it runs, and refuses a saved state that is not null', () => {
    const limits = limitsOf({ maxCostUsd: 1 });
    expect(budget.start(limits)).toBeNull();
    expect(budget.judgesCalls(limits)).toBe(false);
    expect(budget.restore(null, limits, 'detectors.budget')).toBeNull();
    expect(() => budget.restore({}, limits, 'detectors.budget')).toThrow('snapshot field "detectors.budget" must be null (the detector keeps no state)');
  });

  it('is off with false, and has no limits with true or nothing', () => {
    expect(budget.resolve(false)).toBe(false);
    expect(budget.resolve(true)).toEqual([]);
    expect(budget.resolve(undefined)).toEqual([]);
  });

  it('ties a snapshot to each limit and its warning ratio', () => {
    expect(budget.fingerprint?.(limitsOf({ warnAt: 0.5, maxCostUsd: 2, maxDurationMs: { limit: 10, warnAt: 0.9 }, maxInputTokens: 5 }))).toEqual({
      maxInputTokens: { limit: 5, warnAt: 0.5 },
      maxCostUsd: { limit: 2, warnAt: 0.5 },
      maxDurationMs: { limit: 10, warnAt: 0.9 },
    });
    expect(budget.fingerprint?.(limitsOf({ maxCostUsd: 2 }))).toEqual({ maxCostUsd: { limit: 2, warnAt: null } });
  });
});
