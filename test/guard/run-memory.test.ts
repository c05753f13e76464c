import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions, type GuardStep } from '../../src/index.js';
import { memoryOf } from '../support/snapshot-memory.js';
import { ALL_OFF, call, calls, tool } from '../support/step-builder.js';

/**
 * What the run remembers: the call outcomes it has seen (for noProgress, stagnation and each step's facts) and the
 * answers stagnation asked it to remember, every one of the run or, with historyLimit, those of the last historyLimit
 * steps before the current one. Seen through the detectors that read it and through summaries.
 */

/** noProgress's count of stalled steps after each step: 0 when the step brought a new outcome. */
function stalledCounts(options: GuardOptions, steps: readonly GuardStep[]): number[] {
  const guard = createGuard({ ...ALL_OFF, noProgress: { threshold: 1_000, warnBefore: false }, ...options });
  return steps.map((step) => {
    guard.check(step);
    return (guard.summary().detectors['no-progress'] as { stalledSteps: number }).stalledSteps;
  });
}

const found = (id: number, result = 'ok'): ReturnType<typeof call> => call('lookup', { id }, { result });

describe('the outcomes a run remembers', () => {
  it('without a limit: an outcome is new once, however long ago it was seen', () => {
    const steps = [tool('a'), tool('b'), ...Array.from({ length: 30 }, (_, index) => tool('c', index)), tool('a'), tool('b')];
    const counts = stalledCounts({}, steps);
    expect(counts.slice(0, 32)).toEqual(new Array<number>(32).fill(0));
    expect(counts.slice(32)).toEqual([1, 2]);
  });

  it('with historyLimit N: an outcome N steps back is old, N + 1 steps back is new', () => {
    // Steps 0 to 7 with a window of 3: a at 0, seen again at 3 (3 back: old), then at 7 (4 back from 3: new).
    expect(stalledCounts({ historyLimit: 3 }, [tool('a'), tool('b'), tool('b'), tool('a'), tool('c'), tool('c'), tool('c'), tool('a')])).toEqual([0, 0, 1, 2, 0, 1, 2, 0]);
    // A window of 1 remembers only the step before.
    expect(stalledCounts({ historyLimit: 1 }, [tool('a'), tool('a'), tool('b'), tool('a')])).toEqual([0, 1, 0, 0]);
  });

  it('with historyLimit, a repeat refreshes an outcome, so it stays old while it keeps coming back', () => {
    const gap = (id: number): GuardStep => tool('gap', id);
    expect(stalledCounts({ historyLimit: 2 }, [tool('a'), gap(1), tool('a'), gap(2), tool('a'), gap(3), gap(4), tool('a')])).toEqual([0, 0, 1, 0, 1, 0, 0, 0]);
  });

  it('takes a call new when an earlier call of the same step brought its outcome first, and the next step not', () => {
    const guard = createGuard({ ...ALL_OFF, noProgress: { threshold: 2, warnBefore: false } });
    expect(guard.check(calls(found(1), found(1)))).toEqual({ stop: false });
    expect(guard.summary().detectors['no-progress']).toEqual({ stalledSteps: 0, distinctOutcomes: 1, threshold: 2 });
    guard.check(calls(found(1), found(1)));
    expect(guard.check(calls(found(1), found(1, 'changed')))).toEqual({ stop: false });
    expect(guard.summary().detectors['no-progress']).toEqual({ stalledSteps: 0, distinctOutcomes: 2, threshold: 2 });
  });

  it('records nothing on a peek: a step peeked at is as new when it is checked', () => {
    const guard = createGuard({ ...ALL_OFF, noProgress: { threshold: 2, warnBefore: false } });
    guard.check(calls(found(1)));
    expect(guard.peek(calls(found(2)))).toEqual({ stop: false });
    expect(guard.peek(calls(found(1)))).toEqual({ stop: false });
    expect(guard.summary().detectors['no-progress']).toEqual({ stalledSteps: 0, distinctOutcomes: 1, threshold: 2 });
    expect(guard.check(calls(found(2)))).toEqual({ stop: false });
    expect(guard.summary().detectors['no-progress']).toEqual({ stalledSteps: 0, distinctOutcomes: 2, threshold: 2 });
  });

  it('is one memory: stagnation sees the outcomes as noProgress does, and alone it still keeps them', () => {
    const steps = [tool('read', 1, { result: 'a page' }), tool('read', 2, { result: 'another page' }), tool('read', 1, { result: 'a page' })];
    for (const options of [{ noProgress: {} }, {}] as GuardOptions[]) {
      const guard = createGuard({ ...ALL_OFF, stagnation: { window: 2, maxNew: 0 }, ...options });
      const verdicts = steps.map((step) => guard.check(step));
      expect(verdicts.map((verdict) => verdict.stop)).toEqual([false, false, false]);
      expect(guard.summary().detectors.stagnation).toEqual({ window: 2, maxNew: 0, steps: 2, newInWindow: 1, distinctFailures: 0 });
      expect(memoryOf(guard).outcomes.map(([, index]) => index)).toEqual([1, 2]);
    }
  });

  it('makes noProgress count an outcome as new unless one of the last `historyLimit` steps produced it', () => {
    fc.assert(
      fc.property(runArbitrary, fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 4 }), (steps, historyLimit, threshold) => {
        const guard = createGuard({ ...ALL_OFF, noProgress: { threshold }, historyLimit });
        const stops = steps.map((step) => guard.check(step).stop);
        expect(stops).toEqual(referenceNoProgress(steps, threshold, historyLimit));
      }),
      { numRuns: 150 },
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
  it('bounds history and remembered outcomes over a long run, while counts and step indexes stay whole', () => {
    const guard = createGuard({ maxSteps: false, historyLimit: 100 });
    for (let n = 0; n < 2_000; n++) expect(guard.check(tool('search', n, { result: n })).stop).toBe(false);
    expect(guard.history).toHaveLength(100);
    expect(guard.history[0]?.toolCalls?.[0]?.args).toEqual({ id: 1_900 });
    expect(guard.history[99]?.toolCalls?.[0]?.args).toEqual({ id: 1_999 });
    const summary = guard.summary();
    expect(summary.steps).toBe(2_000);
    expect(summary.toolCalls).toBe(2_000);
    // The current step's outcome and those of the 100 steps before it.
    expect(summary.detectors['no-progress']).toEqual({ stalledSteps: 0, distinctOutcomes: 101, threshold: 3 });
    guard.check(tool('search', 7));
    guard.check(tool('search', 7));
    expect(guard.check(tool('search', 7))).toMatchObject({
      reason: 'repeated-tool-call',
      evidence: { count: 3, stepIndexes: [2_000, 2_001, 2_002] },
    });
  });
});

describe('the memory in a snapshot', () => {
  it('is written in one order, by step and then by key, whatever order the keys came in', () => {
    // A frozen clock: the snapshots hold the time the run has taken, which would differ between the two readings.
    const options: GuardOptions = { ...ALL_OFF, noProgress: {}, now: () => 0 };
    const uninterrupted = createGuard(options);
    uninterrupted.check(calls(call('b', 1), call('a', 1)));
    uninterrupted.check(calls(call('c', 1)));
    uninterrupted.check(calls(call('a', 1), call('b', 1)));
    const outcomes = memoryOf(uninterrupted).outcomes.map(([key, step]) => [key.slice(0, 3), step]);
    expect(outcomes).toEqual([['"c"', 1], ['"a"', 2], ['"b"', 2]]);
    const restored = createGuard(options, { snapshot: JSON.parse(JSON.stringify(uninterrupted.snapshot())) as unknown });
    expect(JSON.stringify(restored.snapshot())).toBe(JSON.stringify(uninterrupted.snapshot()));
  });
});

describe('the answers a run remembers', () => {
  const grep = (pattern: string, answer: string): GuardStep => calls(call('grep', { pattern }, { result: answer }));

  it('are the failures stagnation compares across calls, counted once each', () => {
    const guard = createGuard({ ...ALL_OFF, stagnation: {} });
    guard.check(grep('a', 'No matches for "a"'));
    guard.check(grep('b', 'No matches for "b"'));
    guard.check(grep('c', 'Permission denied'));
    guard.check(grep('d', 'src/d.ts: a match'));
    expect(guard.summary().detectors.stagnation).toMatchObject({ steps: 4, newInWindow: 3, distinctFailures: 2 });
    expect(memoryOf(guard).answers.map(([, index]) => index)).toEqual([1, 2]);
  });

  it('with historyLimit N: a failure N steps back is old, N + 1 steps back is new again', () => {
    const newInWindow = (historyLimit: number): number => {
      const guard = createGuard({ ...ALL_OFF, stagnation: { window: 10, maxNew: 0 }, historyLimit });
      for (const step of [grep('a', 'No matches for "a"'), grep('x', 'x found'), grep('y', 'y found'), grep('b', 'No matches for "b"')]) guard.check(step);
      return (guard.summary().detectors.stagnation as { newInWindow: number }).newInWindow;
    };
    expect(newInWindow(3)).toBe(3);
    expect(newInWindow(2)).toBe(4);
  });

  it('records nothing on a peek', () => {
    const guard = createGuard({ ...ALL_OFF, stagnation: { window: 2, maxNew: 0 } });
    guard.check(grep('a', 'No matches for "a"'));
    guard.peek(grep('b', 'Permission denied'));
    guard.check(grep('c', 'Permission denied'));
    expect(guard.summary().detectors.stagnation).toMatchObject({ steps: 2, newInWindow: 2, distinctFailures: 2 });
  });
});

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

