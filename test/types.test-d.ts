import { describe, expectTypeOf, it } from 'vitest';
import type { CallVerdict, GuardOptions, GuardStep, StopReason, Verdict } from '../src/index.js';
import { createGuard, explain, isFault } from '../src/index.js';

describe('public types', () => {
  it('narrow evidence and code by reason', () => {
    const verdict = createGuard().check({});
    if (verdict.stop && verdict.reason === 'repeated-tool-call') {
      expectTypeOf(verdict.code).toEqualTypeOf<'REPEATED_TOOL_CALL'>();
      expectTypeOf(verdict.evidence.stepIndexes).toEqualTypeOf<readonly number[]>();
      expectTypeOf(verdict.evidence.identicalResults).toEqualTypeOf<boolean>();
    }
    if (verdict.stop && verdict.reason === 'budget') {
      expectTypeOf(verdict.evidence.metric).toEqualTypeOf<'totalTokens' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'durationMs'>();
      expectTypeOf(verdict.code).toEqualTypeOf<
        'BUDGET_TOTAL_TOKENS' | 'BUDGET_INPUT_TOKENS' | 'BUDGET_OUTPUT_TOKENS' | 'BUDGET_COST_USD' | 'BUDGET_DURATION_MS'
      >();
    }
    if (verdict.stop && verdict.reason === 'finish-reason') {
      expectTypeOf(verdict.code).toEqualTypeOf<'FINISH_TERMINAL' | 'FINISH_OTHER' | 'FINISH_OTHER_TEXT_ONLY'>();
      expectTypeOf(verdict.evidence.normalized).toEqualTypeOf<string>();
    }
    if (verdict.stop && verdict.reason === 'oscillation') {
      expectTypeOf(verdict.evidence.cycle).toEqualTypeOf<readonly string[]>();
    }
    if (verdict.stop && verdict.reason === 'custom') {
      expectTypeOf(verdict.code).toEqualTypeOf<string>();
      expectTypeOf(verdict.evidence).toBeUnknown();
    }
    if (!verdict.stop) {
      // @ts-expect-error a continue verdict has no reason
      expectTypeOf(verdict.reason).toBeString();
    }
  });

  it('accepts steps with explicitly undefined fields', () => {
    const maybe: string | undefined = undefined;
    expectTypeOf({ text: maybe, finishReason: maybe }).toExtend<GuardStep>();
  });

  it('reject options of the wrong type at compile time', () => {
    // @ts-expect-error threshold is a number
    createGuard({ repeatedToolCall: { threshold: '3' } });
    // @ts-expect-error otherPolicy is one of three strings
    createGuard({ finishReason: { otherPolicy: 'maybe' } });
    expectTypeOf<{ maxSteps: false; budget: { maxCostUsd: { limit: 1; warnAt: 0.5 } } }>().toExtend<GuardOptions>();
  });

  it('types the helpers', () => {
    expectTypeOf(explain).parameter(0).toEqualTypeOf<Verdict | CallVerdict>();
    expectTypeOf(explain).returns.toEqualTypeOf<string>();
    const verdict = createGuard().check({});
    if (isFault(verdict)) expectTypeOf(verdict.reason).toEqualTypeOf<StopReason>();
  });
});
