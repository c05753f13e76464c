import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard, type CustomDetector, type Guard, type GuardOptions, type GuardStep, type Verdict } from '../../src/index.js';

/** A rule with no state of its own: what it says depends only on what it is shown, so a restore cannot change it. */
const chatty: CustomDetector = (history) =>
  history.filter((step) => (step.text ?? '') !== '').length >= 9 ? { stop: true, code: 'CHATTY', evidence: { steps: history.length } } : undefined;

const option = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | false> => fc.oneof({ weight: 1, arbitrary: fc.constant(false as const) }, { weight: 4, arbitrary });

const optionsArbitrary: fc.Arbitrary<GuardOptions> = fc.record({
  maxSteps: fc.constantFrom(false as const, 8, 15, 40),
  repeatedToolCall: option(fc.record({ threshold: fc.integer({ min: 2, max: 4 }), requireIdenticalResults: fc.boolean(), ignoreErrors: fc.boolean() })),
  oscillation: option(fc.record({ maxPeriod: fc.integer({ min: 2, max: 4 }), repeats: fc.integer({ min: 2, max: 3 }) })),
  noProgress: option(fc.record({ threshold: fc.integer({ min: 2, max: 4 }) })),
  stagnation: option(
    fc.integer({ min: 2, max: 6 }).chain((window) => fc.record({ window: fc.constant(window), maxNew: fc.integer({ min: 0, max: window - 1 }) })),
  ),
  finishReason: option(fc.record({ otherPolicy: fc.constantFrom('stop' as const, 'continue' as const, 'stop-if-text-only' as const) })),
  budget: option(
    fc.record({
      maxTotalTokens: fc.record({ limit: fc.integer({ min: 200, max: 3_000 }), warnAt: fc.constantFrom(0.5, 0.8) }),
      maxCostUsd: fc.constantFrom(0.3, 0.5, 1),
      maxDurationMs: fc.constantFrom(500, 2_000),
      warnAt: fc.constantFrom(0.7, 0.9),
    }),
  ),
  historyLimit: fc.constantFrom(false as const, 1, 3, 6),
  custom: fc.constantFrom([] as CustomDetector[], [chatty]),
});

const callArbitrary = fc.record(
  {
    name: fc.constantFrom('search', 'read', 'write', 'grep'),
    args: fc.constantFrom<unknown>({ q: 1 }, { q: 2 }, { path: 'a' }, { path: 'b', lines: [1, 2] }, undefined, { when: new Date(0) }, { n: 10n }, { text: 'x'.repeat(300) }),
    result: fc.constantFrom<unknown>('ok', 'No matches found for "a"', 'No matches found for "b"', 42, { rows: [1] }, 'y'.repeat(400), new Map([[1, 2]])),
    error: fc.constantFrom<unknown>('boom', null, new Error('failed')),
  },
  { requiredKeys: ['name'] },
);

const stepArbitrary: fc.Arbitrary<GuardStep> = fc.record(
  {
    toolCalls: fc.array(callArbitrary, { maxLength: 3 }),
    text: fc.constantFrom('', 'Looking.', 'looking.  ', 'Trying again', 'Done.'),
    finishReason: fc.constantFrom('tool-calls', 'stop', 'other', 'length', 'TOOL_CALLS'),
    usage: fc.record(
      { inputTokens: fc.nat(400), outputTokens: fc.nat(80), costUsd: fc.constantFrom(0.01, 0.1, 0.6666666666666666, Number.NaN, -1) },
      { requiredKeys: [] },
    ),
    durationMs: fc.constantFrom(0, 12.5, 100, Number.NaN),
  },
  { requiredKeys: [] },
);

/** A run: options, steps, and the clock's advance before each step. */
const runArbitrary = fc.record({
  options: optionsArbitrary,
  steps: fc.array(fc.tuple(stepArbitrary, fc.nat(300)), { minLength: 1, maxLength: 45 }),
});

describe('a guard restored from a snapshot', () => {
  it('answers every later step exactly as the uninterrupted guard, split anywhere, through JSON', () => {
    fc.assert(
      fc.property(runArbitrary, fc.array(fc.nat(44)), ({ options, steps }, splits) => {
        let time = 1_000;
        const withClock = { ...options, now: () => time };
        const [uninterrupted, first] = twins(withClock);
        let resumed = first;
        const splitAt = new Set(splits);
        steps.forEach(([step, advance], index) => {
          if (splitAt.has(index)) {
            const stored = JSON.stringify(resumed.snapshot());
            resumed = createGuard(withClock, { snapshot: JSON.parse(stored) as unknown });
          }
          time += advance;
          expect(resumed.check(step)).toStrictEqual(uninterrupted.check(step));
        });
        expect(resumed.summary()).toStrictEqual(uninterrupted.summary());
        expect(JSON.stringify(resumed.snapshot())).toBe(JSON.stringify(uninterrupted.snapshot()));
      }),
      { numRuns: 300 },
    );
  });

  it('continues the history, as plain JSON, for custom rules and `history`', () => {
    const guard = createGuard({ historyLimit: 2 });
    guard.check({ text: 'one', toolCalls: [{ name: 'a', args: { when: new Date(0) } }] });
    guard.check({ text: 'two' });
    guard.check({ text: 'three' });
    const seen: unknown[] = [];
    const restored = createGuard({ historyLimit: 2, custom: undefined }, { snapshot: guard.snapshot() });
    expect(restored.history).toEqual([{ text: 'two' }, { text: 'three' }]);
    const withRule = createGuard({ custom: (history) => void seen.push(history.map((step) => step.text)) });
    withRule.check({ text: 'a', toolCalls: [{ name: 'x', args: { n: 1n } }] });
    const continued = createGuard({ custom: (history) => void seen.push(history.map((step) => step.text)) }, { snapshot: withRule.snapshot() });
    continued.check({ text: 'b' });
    expect(seen).toEqual([['a'], ['a', 'b']]);
    expect(continued.history[0]?.toolCalls).toEqual([{ name: 'x', args: { n: '1n' } }]);
    // As JSON.stringify writes them: what a rule can rely on after a restore, as the CustomDetector TSDoc says.
    const rich = createGuard();
    rich.check({ toolCalls: [{ name: 'x', args: { when: new Date(0), lookup: new Map([['k', 1]]), tags: new Set(['a']) } }] });
    expect(createGuard({}, { snapshot: rich.snapshot() }).history[0]?.toolCalls).toEqual([{ name: 'x', args: { when: '1970-01-01T00:00:00.000Z', lookup: {}, tags: {} } }]);
  });

  it('keeps the run clock: wall-clock time before the snapshot counts after the restore', () => {
    let time = 0;
    const options = { budget: { maxDurationMs: 1_000 }, now: () => time };
    const guard = createGuard(options);
    time = 600;
    expect(guard.check({}).stop).toBe(false);
    const restored = createGuard(options, { snapshot: guard.snapshot() });
    time = 1_000;
    expect(restored.check({})).toMatchObject({ stop: true, code: 'BUDGET_DURATION_MS', evidence: { value: 1_000 } });
  });

  it('starts over on reset, like a new guard', () => {
    const guard = createGuard({ maxSteps: 2 });
    guard.check({});
    const restored = createGuard({ maxSteps: 2 }, { snapshot: guard.snapshot() });
    restored.reset();
    expect(restored.check({})).toEqual({ stop: false });
    expect(restored.summary().steps).toBe(1);
  });
});

describe('peek', () => {
  it('gives the verdict check then gives, and on its own changes nothing', () => {
    fc.assert(
      fc.property(runArbitrary, fc.array(fc.boolean(), { minLength: 45, maxLength: 45 }), ({ options, steps }, peeks) => {
        let time = 1_000;
        const withClock = { ...options, now: () => time };
        const [peeking, plain] = twins(withClock);
        steps.forEach(([step, advance], index) => {
          time += advance;
          // Peeks at the step, sometimes twice, and at an unrelated step that is never checked.
          if (peeks[index] === true) {
            peeking.peek({ toolCalls: [{ name: 'never', args: { index } }], text: 'never checked' });
            peeking.peek(step);
          }
          const peeked: Verdict = peeking.peek(step);
          const checked = peeking.check(step);
          expect(peeked).toStrictEqual(checked);
          expect(checked).toStrictEqual(plain.check(step));
        });
        expectSameGuard(peeking, plain);
      }),
      { numRuns: 300 },
    );
  });

  it('calls custom rules with the step last in their history, then takes it back out', () => {
    const shown: number[] = [];
    const guard = createGuard({ custom: (history) => void shown.push(history.length), historyLimit: 2 });
    guard.check({ text: 'a' });
    guard.check({ text: 'b' });
    guard.peek({ text: 'c' });
    expect(shown).toEqual([1, 2, 2]);
    expect(guard.history.map((step) => step.text)).toEqual(['a', 'b']);
    const unlimited = createGuard({ custom: (history) => void shown.push(history.length) });
    unlimited.check({ text: 'a' });
    unlimited.peek({ text: 'b' });
    expect(shown.slice(3)).toEqual([1, 2]);
    expect(unlimited.history).toHaveLength(1);
  });

  it('leaves the guard as it was when a custom rule throws', () => {
    let fail = false;
    const guard = createGuard({
      custom: () => {
        if (fail) throw new Error('rule failed');
        return undefined;
      },
    });
    guard.check({ text: 'a' });
    const before = JSON.stringify(guard.snapshot());
    fail = true;
    expect(() => guard.peek({ text: 'b' })).toThrow('rule failed');
    expect(JSON.stringify(guard.snapshot())).toBe(before);
    expect(guard.history).toHaveLength(1);
  });

  it('judges a step without recording it: what would a repeated call do now?', () => {
    const guard = createGuard({ repeatedToolCall: { threshold: 3 } });
    const search = { toolCalls: [{ name: 'search', args: { q: 'x' } }] };
    guard.check(search);
    guard.check(search);
    expect(guard.peek(search)).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL', evidence: { count: 3 } });
    expect(guard.peek(search)).toMatchObject({ stop: true, evidence: { count: 3 } });
    expect(guard.summary()).toMatchObject({ steps: 2, stops: 0, lastVerdict: { stop: false } });
  });
});

/**
 * Two new guards that compare with the same secret key, so their snapshots can be compared whole: each guard draws
 * its own key, and a restored guard takes the snapshot's.
 */
function twins(options: GuardOptions): [Guard, Guard] {
  const start = createGuard(options).snapshot();
  return [createGuard(options, { snapshot: start }), createGuard(options, { snapshot: start })];
}

/** Everything a guard shows, the same in both. */
function expectSameGuard(actual: Guard, expected: Guard): void {
  expect(actual.summary()).toStrictEqual(expected.summary());
  expect(actual.history).toStrictEqual(expected.history);
  expect(JSON.stringify(actual.snapshot())).toBe(JSON.stringify(expected.snapshot()));
}

// A clock that reads a number that is not finite counts as 0, so the snapshot can hold the reading and restore it.
const steps = [
  { text: 'a', finishReason: 'tool-calls', toolCalls: [{ name: 'search', args: { q: 1 } }] },
  { text: 'b', finishReason: 'tool-calls', toolCalls: [{ name: 'search', args: { q: 1 } }] },
  { text: 'c', finishReason: 'tool-calls', toolCalls: [{ name: 'search', args: { q: 1 } }] },
];

describe.each([
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
])('a guard whose clock reads %s', (_name, reading) => {
  const options: GuardOptions = { now: () => reading, budget: { maxDurationMs: 10_000 } };

  it('snapshots a number for startedAt, as GuardSnapshot says', () => {
    const guard = createGuard(options);
    guard.check(steps[0] ?? {});
    expect(typeof guard.snapshot().startedAt).toBe('number');
  });

  it('restores its own snapshot and goes on as if never interrupted', () => {
    const uninterrupted = createGuard(options);
    let resumed = createGuard(options);
    for (const step of steps) {
      resumed = createGuard(options, { snapshot: JSON.parse(JSON.stringify(resumed.snapshot())) });
      expect(resumed.check(step)).toEqual(uninterrupted.check(step));
    }
  });
});
