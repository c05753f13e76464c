import { describe, expect, it } from 'vitest';
import type { Detector, StepFacts } from '../../src/detectors/detector.js';
import { budgetDetector } from '../../src/detectors/budget.js';
import { customDetector } from '../../src/detectors/custom.js';
import { finishReasonDetector } from '../../src/detectors/finish-reason.js';
import { oscillationDetector } from '../../src/detectors/oscillation.js';
import { repeatedToolCallDetector } from '../../src/detectors/repeated-tool-call.js';
import { reduceStep } from '../../src/guard/reduce-step.js';
import type { GuardStep } from '../../src/index.js';

/** Facts for a step, as the guard would build them (no clock, totals from this step alone). */
function facts(step: GuardStep, index = 0): StepFacts {
  const reduced = reduceStep(step);
  return {
    index,
    step: reduced.step,
    history: [reduced.step],
    calls: reduced.calls,
    normalizedText: reduced.normalizedText,
    hasText: reduced.normalizedText !== '',
    finishReason: reduced.finishReason,
    totals: { inputTokens: 0, outputTokens: 0, totalTokens: 5, costUsd: 0, durationMs: 0 },
    elapsedMs: 0,
  };
}

/** The Detector contract: nothing to say is `undefined`, never an object holding `stop: undefined`. */
function expectSilent(detector: Detector, step: GuardStep, index = 0): void {
  expect(detector.check(facts(step, index))).toBeUndefined();
}

describe('detectors answer undefined when they have nothing to say', () => {
  it('budget: below every limit and warning', () => {
    expectSilent(budgetDetector({ limits: [{ metric: 'totalTokens', code: 'BUDGET_TOTAL_TOKENS', limit: 100, warnAt: 0.9 }] }), {});
  });

  it('budget: a warning alone carries no stop key', () => {
    const detector = budgetDetector({ limits: [{ metric: 'totalTokens', code: 'BUDGET_TOTAL_TOKENS', limit: 10, warnAt: 0.5 }] });
    const result = detector.check(facts({}));
    expect(result).toStrictEqual({
      warnings: [{ code: 'BUDGET_WARNING', metric: 'totalTokens', value: 5, limit: 10, ratio: 0.5, detail: 'Total tokens is at 5 of a 10 limit (50%).' }],
    });
  });

  it('budget: a stop without warnings carries no warnings key', () => {
    const detector = budgetDetector({ limits: [{ metric: 'totalTokens', code: 'BUDGET_TOTAL_TOKENS', limit: 5, warnAt: 0.5 }] });
    expect(Object.keys(detector.check(facts({})) ?? {})).toEqual(['stop']);
  });

  it('finish reason: a continuing reason', () => {
    const detector = finishReasonDetector({ terminal: ['stop'], otherPolicy: 'stop-if-text-only' });
    expectSilent(detector, { finishReason: 'tool-calls', text: 'calling' });
    expectSilent(detector, { finishReason: 'other', toolCalls: [{ name: 'a' }], text: 'x' });
  });

  it('oscillation: no cycle', () => {
    expectSilent(oscillationDetector({ maxPeriod: 3, repeats: 3 }), { toolCalls: [{ name: 'a' }, { name: 'b' }] });
  });

  it('repeated tool call: a run below the threshold', () => {
    expectSilent(repeatedToolCallDetector({ threshold: 3, requireIdenticalResults: false, ignoreErrors: false }), {
      toolCalls: [{ name: 'a' }, { name: 'a' }],
    });
  });

  it('custom: rules that continue, without counting a stop', () => {
    const detector = customDetector([() => undefined, () => ({ stop: false })]);
    expectSilent(detector, { text: 'x' });
    expect(detector.state()).toEqual({ detectors: 2, stops: 0 });
  });
});
