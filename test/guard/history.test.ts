import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard, type CustomDetector, type GuardOptions, type GuardStep } from '../../src/index.js';
import { ALL_OFF, text, tool } from '../support/step-builder.js';

describe('guard.history', () => {
  it('is a frozen shallow copy of sanitised steps, current step last', () => {
    const guard = createGuard();
    const args = { q: 1 };
    guard.check({ text: 'hi', toolCalls: [{ name: 's', args, result: 'r' }], finishReason: 'tool-calls', usage: { inputTokens: 3 }, durationMs: 4, timestamp: 5 });
    const history = guard.history;
    expect(Object.isFrozen(history)).toBe(true);
    expect(Object.isFrozen(history[0])).toBe(true);
    expect(history).toEqual([
      { text: 'hi', toolCalls: [{ name: 's', args: { q: 1 }, result: 'r' }], finishReason: 'tool-calls', usage: { inputTokens: 3 }, durationMs: 4, timestamp: 5 },
    ]);
    expect(history[0]?.toolCalls?.[0]?.args).toBe(args);
    expect(guard.history).toBe(history);
    guard.check({});
    expect(history).toHaveLength(1);
    expect(guard.history).toHaveLength(2);
  });

  /** Whether the step, its tool-call array, each call and its usage are frozen, in that order. */
  const frozenParts = (step: GuardStep | undefined): boolean[] => [
    Object.isFrozen(step),
    Object.isFrozen(step?.toolCalls),
    ...(step?.toolCalls ?? []).map((entry) => Object.isFrozen(entry)),
    Object.isFrozen(step?.usage),
  ];
  const twoCalls: GuardStep = { toolCalls: [{ name: 'a' }, { name: 'b', blocked: true }], usage: { inputTokens: 1 } };

  it('freezes every part of a step it shows: the step, its tool calls, each call and its usage', () => {
    for (const historyLimit of [undefined, 1, 2]) {
      const guard = createGuard({ historyLimit });
      guard.check(twoCalls);
      guard.check(twoCalls);
      for (const step of guard.history) expect(frozenParts(step)).toEqual([true, true, true, true, true]);
    }
  });

  it('hands custom rules the step and the history frozen, before they run', () => {
    for (const historyLimit of [undefined, 1, 3]) {
      const seen: boolean[][] = [];
      const guard = createGuard({
        historyLimit,
        custom: (history, step) => {
          seen.push(frozenParts(step), ...history.map(frozenParts));
          return undefined;
        },
      });
      guard.check(twoCalls);
      guard.peek(twoCalls);
      guard.check(twoCalls);
      expect(seen.length).toBeGreaterThan(3);
      for (const parts of seen) expect(parts).toEqual([true, true, true, true, true]);
    }
  });

  it('freezes a restored history at once, custom rules seeing it whole', () => {
    const seen: boolean[][] = [];
    let watching = false;
    const rule = (history: readonly GuardStep[]): undefined => {
      if (watching) seen.push(...history.map(frozenParts));
      return undefined;
    };
    const saved = createGuard({ custom: rule });
    saved.check(twoCalls);
    const restored = createGuard({ custom: rule }, { snapshot: saved.snapshot() });
    watching = true;
    restored.check(twoCalls);
    expect(seen).toEqual([
      [true, true, true, true, true],
      [true, true, true, true, true],
    ]);
  });

  it('leaves out unusable parts of a step', () => {
    const guard = createGuard();
    guard.check({
      text: 5,
      finishReason: null,
      usage: { inputTokens: -1, outputTokens: Number.NaN, totalTokens: 7, costUsd: '1' },
      durationMs: Number.POSITIVE_INFINITY,
      timestamp: Number.NaN,
      toolCalls: [{ name: 3 }, null, 'x', { name: 'ok', error: null }],
    } as never);
    expect(guard.history).toEqual([{ toolCalls: [{ name: 'ok', error: null }], usage: { totalTokens: 7 } }]);
  });

  it('is emptied by reset', () => {
    const guard = createGuard();
    guard.check({});
    guard.reset();
    expect(guard.history).toEqual([]);
  });
});


describe('historyLimit and history', () => {
  it('keeps the most recent steps, oldest first, at every length, and hands custom rules the same', () => {
    for (const historyLimit of [1, 2, 3]) {
      const seen: (string | undefined)[][] = [];
      const guard = createGuard({ ...ALL_OFF, historyLimit, custom: (history) => void seen.push(history.map((step) => step.text)) });
      const all: string[] = [];
      for (let n = 0; n < 3 * historyLimit + 1; n++) {
        guard.check(text(String(n)));
        all.push(String(n));
        expect(guard.history.map((step) => step.text)).toEqual(all.slice(-historyLimit));
        expect(seen.at(-1)).toEqual(all.slice(-historyLimit));
      }
    }
  });

  it('hands custom rules the live history without a limit, and a frozen copy of at most the limit with one', () => {
    const shown: (readonly GuardStep[])[] = [];
    const unlimited = createGuard({ ...ALL_OFF, custom: (history) => void shown.push(history) });
    unlimited.check(text('0'));
    unlimited.check(text('1'));
    expect(shown[1]).toBe(shown[0]);
    expect(shown[0]?.map((step) => step.text)).toEqual(['0', '1']);
    expect(unlimited.history).not.toBe(shown[0]);
    expect(Object.isFrozen(unlimited.history)).toBe(true);
    const limited = createGuard({ ...ALL_OFF, historyLimit: 2, custom: (history) => void shown.push(history) });
    for (let n = 0; n < 3; n++) limited.check(text(String(n)));
    expect(shown[4]).not.toBe(shown[3]);
    expect(Object.isFrozen(shown[4])).toBe(true);
    expect(shown[4]?.map((step) => step.text)).toEqual(['1', '2']);
    expect(limited.history).toBe(shown[4]);
  });

  it('takes a peeked step back out at every length, the dropped step back in', () => {
    for (const historyLimit of [undefined, 1, 2]) {
      const guard = createGuard({ ...ALL_OFF, historyLimit });
      guard.check(text('0'));
      guard.check(text('1'));
      const before = guard.history;
      guard.peek(text('peeked'));
      expect(guard.history).toBe(before);
      guard.check(text('2'));
      expect(guard.history.map((step) => step.text)).toEqual(['0', '1', '2'].slice(-(historyLimit ?? 3)));
    }
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

/** Every verdict, the summary after each step, and the final history. */
function play(options: GuardOptions, steps: readonly GuardStep[]) {
  const guard = createGuard(options);
  const verdicts = steps.map((step) => ({ verdict: guard.check(step), summary: guard.summary() }));
  return { verdicts, history: guard.history };
}

describe('historyLimit leaves the rest as it was', () => {
  it('changes nothing while the run is no longer than the limit', () => {
    const rule: CustomDetector = (history) =>
      history.flatMap((step) => step.toolCalls ?? []).filter((call) => call.name === 'c').length >= 4 ? { stop: true } : undefined;
    fc.assert(
      fc.property(runArbitrary, fc.integer({ min: 0, max: 5 }), (steps, extra) => {
        const options: GuardOptions = { custom: rule, budget: { maxTotalTokens: 900, warnAt: 0.5 } };
        const bounded = play({ ...options, historyLimit: Math.max(1, steps.length + extra) }, steps);
        expect(bounded).toEqual(play(options, steps));
      }),
      { numRuns: 100 },
    );
  });

  it('leaves every detector but noProgress and stagnation exact, whatever the limit', () => {
    fc.assert(
      fc.property(runArbitrary, fc.integer({ min: 1, max: 5 }), (steps, historyLimit) => {
        const options: GuardOptions = { noProgress: false, stagnation: false, maxSteps: 40, budget: { maxTotalTokens: 900, warnAt: 0.5 } };
        expect(play({ ...options, historyLimit }, steps).verdicts).toEqual(play(options, steps).verdicts);
      }),
      { numRuns: 100 },
    );
  });
});
