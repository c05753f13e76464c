import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions } from '../../src/index.js';
import { resolveOptions } from '../../src/options/resolve-options.js';

describe('resolveOptions', () => {
  it('fills in every default and freezes the result', () => {
    const resolved = resolveOptions(undefined);
    expect(resolved).toEqual({
      maxSteps: { limit: 50 },
      repeatedToolCall: { threshold: 3, requireIdenticalResults: false, ignoreErrors: false },
      oscillation: { maxPeriod: 3, repeats: 3 },
      noProgress: { threshold: 3 },
      finishReason: { terminal: ['stop', 'length', 'content-filter', 'error'], otherPolicy: 'stop-if-text-only' },
      budget: { limits: [] },
      custom: [],
      now: Date.now,
    });
    expect(Object.isFrozen(resolved)).toBe(true);
  });

  it('switches detectors off with false and keeps defaults for true or an empty object', () => {
    const resolved = resolveOptions({ maxSteps: false, repeatedToolCall: false, oscillation: true, noProgress: {}, finishReason: false, budget: false });
    expect(resolved).toMatchObject({
      maxSteps: false,
      repeatedToolCall: false,
      oscillation: { maxPeriod: 3, repeats: 3 },
      noProgress: { threshold: 3 },
      finishReason: false,
      budget: false,
    });
  });

  it('resolves budget limits in checking order with their warning ratios', () => {
    expect(
      resolveOptions({ budget: { warnAt: 0.5, maxDurationMs: 10, maxCostUsd: { limit: 2, warnAt: 0.9 }, maxTotalTokens: { limit: 3 } } }).budget,
    ).toEqual({
      limits: [
        { metric: 'totalTokens', code: 'BUDGET_TOTAL_TOKENS', limit: 3, warnAt: 0.5 },
        { metric: 'costUsd', code: 'BUDGET_COST_USD', limit: 2, warnAt: 0.9 },
        { metric: 'durationMs', code: 'BUDGET_DURATION_MS', limit: 10, warnAt: 0.5 },
      ],
    });
  });

  it('takes one custom detector or a list', () => {
    const rule = () => undefined;
    expect(resolveOptions({ custom: rule }).custom).toEqual([rule]);
    expect(resolveOptions({ custom: [rule, rule] }).custom).toEqual([rule, rule]);
  });

  it('accepts the boundary values', () => {
    expect(() =>
      createGuard({
        maxSteps: 1,
        repeatedToolCall: { threshold: 2 },
        oscillation: { maxPeriod: 2, repeats: 2 },
        noProgress: { threshold: 2 },
        budget: { warnAt: 1, maxCostUsd: Number.MIN_VALUE },
        finishReason: { terminal: [] },
      }),
    ).not.toThrow();
  });

  const invalid: [string, unknown, string][] = [
    ['options', 5, 'option "options" must be an object, got 5.'],
    ['an unknown option', { maxStep: 3 }, 'unknown option "maxStep"'],
    ['maxSteps 0', { maxSteps: 0 }, 'option "maxSteps" must be an integer of at least 1, got 0.'],
    ['maxSteps 2.5', { maxSteps: 2.5 }, 'option "maxSteps" must be an integer of at least 1, got 2.5.'],
    ['maxSteps true', { maxSteps: true }, 'option "maxSteps" must be an integer of at least 1, got true.'],
    ['repeatedToolCall.threshold 1', { repeatedToolCall: { threshold: 1 } }, 'option "repeatedToolCall.threshold" must be an integer of at least 2, got 1.'],
    ['repeatedToolCall.ignoreErrors', { repeatedToolCall: { ignoreErrors: 'yes' } }, 'option "repeatedToolCall.ignoreErrors" must be true or false, got "yes".'],
    ['repeatedToolCall an array', { repeatedToolCall: [] }, 'option "repeatedToolCall" must be an object, got an array.'],
    ['an unknown nested option', { oscillation: { period: 2 } }, 'unknown option "oscillation.period"'],
    ['oscillation.repeats NaN', { oscillation: { repeats: Number.NaN } }, 'option "oscillation.repeats" must be an integer of at least 2, got NaN.'],
    ['noProgress.threshold', { noProgress: { threshold: null } }, 'option "noProgress.threshold" must be an integer of at least 2, got null.'],
    ['finishReason.terminal not an array', { finishReason: { terminal: 'stop' } }, 'option "finishReason.terminal" must be an array of strings, got "stop".'],
    ['finishReason.terminal[1]', { finishReason: { terminal: ['stop', 3] } }, 'option "finishReason.terminal[1]" must be a string, got 3.'],
    ['finishReason.otherPolicy', { finishReason: { otherPolicy: 'ignore' } }, 'option "finishReason.otherPolicy" must be one of "stop", "continue", "stop-if-text-only", got "ignore".'],
    ['budget.maxCostUsd negative', { budget: { maxCostUsd: -1 } }, 'option "budget.maxCostUsd" must be a finite number greater than 0, got -1.'],
    ['budget.maxTotalTokens 0', { budget: { maxTotalTokens: 0 } }, 'option "budget.maxTotalTokens" must be a finite number greater than 0, got 0.'],
    ['budget.maxDurationMs.limit', { budget: { maxDurationMs: { limit: Number.POSITIVE_INFINITY } } }, 'option "budget.maxDurationMs.limit" must be a finite number greater than 0, got Infinity.'],
    ['budget.maxCostUsd.warnAt', { budget: { maxCostUsd: { limit: 1, warnAt: 2 } } }, 'option "budget.maxCostUsd.warnAt" must be a number greater than 0 and at most 1, got 2.'],
    ['budget.warnAt 0', { budget: { warnAt: 0 } }, 'option "budget.warnAt" must be a number greater than 0 and at most 1, got 0.'],
    ['budget.maxInputTokens bigint', { budget: { maxInputTokens: 10n } }, 'option "budget.maxInputTokens" must be a finite number greater than 0, got 10n.'],
    ['custom not a function', { custom: 'rule' }, 'option "custom" must be a function, got "rule".'],
    ['custom[1] not a function', { custom: [() => undefined, {}] }, 'option "custom[1]" must be a function, got a value of type object.'],
    ['now not a function', { now: 5 }, 'option "now" must be a function returning milliseconds, got 5.'],
    ['budget a function', { budget: () => 1 }, 'option "budget" must be an object, got a function.'],
  ];

  it.each(invalid)('throws a TypeError naming the option: %s', (_label, options, message) => {
    expect(() => createGuard(options as GuardOptions)).toThrow(TypeError);
    expect(() => createGuard(options as GuardOptions)).toThrow(message);
  });
});
