import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard, type CustomDetector, type GuardOptions, type GuardStep } from '../../src/index.js';
import { ALL_OFF, text, tool } from '../support/step-builder.js';

/** Small alphabets, so repeats, cycles, stalls, finish reasons and budgets all happen in short runs. */
const stepArbitrary: fc.Arbitrary<GuardStep> = fc.record(
  {
    toolCalls: fc.array(
      fc.record({
        name: fc.constantFrom('a', 'b', 'c'),
        args: fc.record({ id: fc.integer({ min: 0, max: 2 }) }),
        result: fc.integer({ min: 0, max: 1 }),
      }),
      { maxLength: 2 },
    ),
    text: fc.constantFrom('', 'same', 'other'),
    finishReason: fc.constantFrom('tool-calls', 'other', 'stop'),
    usage: fc.record({ totalTokens: fc.integer({ min: 0, max: 40 }) }),
  },
  { requiredKeys: ['toolCalls'] },
);
const runArbitrary = fc.array(stepArbitrary, { maxLength: 70 });

/** Every verdict, the summary after each step, and the final history. */
function play(options: GuardOptions, steps: readonly GuardStep[]) {
  const guard = createGuard(options);
  const verdicts = steps.map((step) => ({ verdict: guard.check(step), summary: guard.summary() }));
  return { verdicts, history: guard.history };
}

/** The documented rule, written the slow way: stalled unless some outcome is missing from the previous `window` steps. */
function referenceNoProgress(steps: readonly GuardStep[], threshold: number, window: number): boolean[] {
  const outcomesOf = (step: GuardStep) => (step.toolCalls ?? []).map((call) => JSON.stringify([call.name, call.args, call.result]));
  let stalled = 0;
  let lastText = '';
  return steps.map((step, index) => {
    const earlier = new Set(steps.slice(Math.max(0, index - window), index).flatMap(outcomesOf));
    if (outcomesOf(step).some((outcome) => !earlier.has(outcome))) {
      stalled = 0;
      return false;
    }
    const stepText = step.text ?? '';
    stalled = stalled > 0 && stepText === lastText ? stalled + 1 : 1;
    lastText = stepText;
    return stalled >= threshold;
  });
}

describe('historyLimit', () => {
  it('changes nothing while the run is no longer than the limit', () => {
    const rule: CustomDetector = (history) =>
      history.flatMap((step) => step.toolCalls ?? []).filter((call) => call.name === 'c').length >= 4 ? { stop: true } : undefined;
    fc.assert(
      fc.property(runArbitrary, fc.integer({ min: 0, max: 5 }), (steps, extra) => {
        const options: GuardOptions = { custom: rule, budget: { maxTotalTokens: 900, warnAt: 0.5 } };
        const bounded = play({ ...options, historyLimit: Math.max(1, steps.length + extra) }, steps);
        expect(bounded).toEqual(play(options, steps));
      }),
      { numRuns: 200 },
    );
  });

  it('leaves every detector but noProgress and stagnation exact, whatever the limit', () => {
    fc.assert(
      fc.property(runArbitrary, fc.integer({ min: 1, max: 5 }), (steps, historyLimit) => {
        const options: GuardOptions = { noProgress: false, stagnation: false, maxSteps: 40, budget: { maxTotalTokens: 900, warnAt: 0.5 } };
        expect(play({ ...options, historyLimit }, steps).verdicts).toEqual(play(options, steps).verdicts);
      }),
      { numRuns: 200 },
    );
  });

  it('makes noProgress count an outcome as new unless one of the last `historyLimit` steps produced it', () => {
    fc.assert(
      fc.property(runArbitrary, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 4 }), (steps, historyLimit, threshold) => {
        const guard = createGuard({ ...ALL_OFF, noProgress: { threshold }, historyLimit });
        const stops = steps.map((step) => guard.check(step).stop);
        expect(stops).toEqual(referenceNoProgress(steps, threshold, historyLimit));
      }),
      { numRuns: 300 },
    );
  });

  it('a cycle longer than the limit looks like progress; one within it does not', () => {
    const cycle = [tool('a'), tool('b'), tool('c'), tool('a'), tool('b'), tool('c')];
    const firstStop = (historyLimit: number | false) => {
      const guard = createGuard({ ...ALL_OFF, noProgress: {}, historyLimit });
      return cycle.findIndex((step) => guard.check(step).stop);
    };
    expect(firstStop(false)).toBe(5);
    expect(firstStop(3)).toBe(5);
    expect(firstStop(2)).toBe(-1);
  });

  it('hands custom rules exactly the kept steps, the current one last', () => {
    const seen: (string | undefined)[][] = [];
    const guard = createGuard({
      ...ALL_OFF,
      historyLimit: 3,
      custom: (history, step) => {
        expect(Object.isFrozen(history)).toBe(true);
        expect(history[history.length - 1]).toBe(step);
        seen.push(history.map((entry) => entry.text));
        return undefined;
      },
    });
    for (let n = 0; n < 5; n++) guard.check(text(String(n)));
    expect(seen).toEqual([['0'], ['0', '1'], ['0', '1', '2'], ['1', '2', '3'], ['2', '3', '4']]);
  });

  it('bounds history and remembered outcomes over a long run, while counts and step indexes stay whole', () => {
    const guard = createGuard({ maxSteps: false, historyLimit: 100 });
    for (let n = 0; n < 10_000; n++) expect(guard.check(tool('search', n, { result: n })).stop).toBe(false);
    expect(guard.history).toHaveLength(100);
    expect(guard.history[0]?.toolCalls?.[0]?.args).toEqual({ id: 9_900 });
    expect(guard.history[99]?.toolCalls?.[0]?.args).toEqual({ id: 9_999 });
    const summary = guard.summary();
    expect(summary.steps).toBe(10_000);
    expect(summary.toolCalls).toBe(10_000);
    // The current step's outcome and those of the 100 steps before it.
    expect(summary.detectors['no-progress']).toEqual({ stalledSteps: 0, distinctOutcomes: 101, threshold: 3 });
    guard.check(tool('search', 7));
    guard.check(tool('search', 7));
    expect(guard.check(tool('search', 7))).toMatchObject({
      reason: 'repeated-tool-call',
      evidence: { count: 3, stepIndexes: [10_000, 10_001, 10_002] },
    });
  });

  it('is emptied by reset, and counting starts again from step 0', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: {}, historyLimit: 2 });
    for (let n = 0; n < 5; n++) guard.check(tool('a', n));
    guard.reset();
    expect(guard.history).toEqual([]);
    expect(guard.summary().steps).toBe(0);
    guard.check(tool('a'));
    guard.check(tool('a'));
    expect(guard.check(tool('a'))).toMatchObject({ evidence: { stepIndexes: [0, 1, 2] } });
    expect(guard.history).toHaveLength(2);
  });

  it('accepts an integer of at least 1, or false, and names the option otherwise', () => {
    expect(() => createGuard({ historyLimit: 1 })).not.toThrow();
    expect(() => createGuard({ historyLimit: false })).not.toThrow();
    expect(() => createGuard({ historyLimit: undefined })).not.toThrow();
    const invalid: [unknown, string][] = [
      [0, '0'],
      [-5, '-5'],
      [2.5, '2.5'],
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, 'Infinity'],
      ['10', '"10"'],
      [true, 'true'],
      [null, 'null'],
      [[10], 'an array'],
    ];
    for (const [value, shown] of invalid) {
      expect(() => createGuard({ historyLimit: value } as GuardOptions)).toThrow(
        new TypeError(`agent-loopguard: option "historyLimit" must be an integer of at least 1, or false, got ${shown}.`),
      );
    }
  });
});
