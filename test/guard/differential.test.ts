/**
 * The guard against a reference implementation (`test/support/reference-guard.ts`): the documented semantics written
 * the slow, obvious way. Generated runs with every detector on go through both, and every verdict, every summary and
 * the history must come out the same, key order included. Speed work on the guard (incremental state, rings, lazy
 * facts, hashing) can then never change an answer unnoticed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard, type Guard, type GuardOptions, type GuardStep, type Verdict } from '../../src/index.js';
import { createReferenceGuard, roundedProduct, roundedSum, type ReferenceGuard } from '../support/reference-guard.js';
import { generateRun, holdsLargeResult, type GeneratedRun } from '../support/run-generator.js';
import { ALL_OFF, isStepObject } from '../support/step-builder.js';

const SEED = 20_261_201;
const RUN_COUNT = 600;
const RUNS_PER_TEST = 100;

/** JSON text that keeps key order and tells a bigint from a number (history holds arguments as given). */
function jsonText(value: unknown): string {
  // Only verdicts, summaries and histories come here, never `undefined`, so the text is always a string.
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${String(item)}n` : item));
}

/**
 * What `toStrictEqual` checks (prototypes, `undefined` members, `Object.is` on primitives, array holes) plus the order
 * of keys, for plain data. Anything else is equal only when it is the same object; when this says no, `expect` then
 * decides and explains. Calling `toStrictEqual` on every verdict would be most of the test's time.
 */
function strictlyEqual(left: unknown, right: unknown): boolean {
  if (Object.is(left, right)) return true;
  if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(left);
  if (prototype !== Object.getPrototypeOf(right)) return false;
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return false;
  const keys = Object.keys(left);
  const otherKeys = Object.keys(right);
  if (keys.length !== otherKeys.length || (Array.isArray(left) && left.length !== (right as unknown[]).length)) return false;
  return keys.every(
    (key, index) =>
      otherKeys[index] === key &&
      strictlyEqual((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]),
  );
}

/** Equal as values (as `toStrictEqual` sees them), with keys in the same order, and as JSON text. */
function expectSame(actual: unknown, expected: unknown, where: string): void {
  const actualText = jsonText(actual);
  const expectedText = jsonText(expected);
  if (strictlyEqual(actual, expected) && actualText === expectedText) return;
  expect(actual, where).toStrictEqual(expected);
  expect(actualText, `${where} (as JSON, key order included)`).toBe(expectedText);
  expect.unreachable(`${where}: the same to expect, but not in key order or only as non-plain objects`);
}

/** Which parts of a history are frozen: the array, each step, its tool-call array, each call and its usage. */
function frozenParts(history: readonly GuardStep[]): boolean[] {
  const parts = [Object.isFrozen(history)];
  for (const step of history) {
    parts.push(Object.isFrozen(step));
    if (step.toolCalls !== undefined) parts.push(Object.isFrozen(step.toolCalls), ...step.toolCalls.map((call) => Object.isFrozen(call)));
    if (step.usage !== undefined) parts.push(Object.isFrozen(step.usage));
  }
  return parts;
}

function expectSameState(production: Guard, reference: ReferenceGuard, where: string): void {
  expectSame(production.summary(), reference.summary(), `${where}: summary()`);
  expectSame(production.history, reference.history, `${where}: history`);
  expect(frozenParts(production.history), `${where}: frozen parts of history`).toStrictEqual(frozenParts(reference.history));
}

/** What the runs exercised, so a generator that stops producing some case fails loudly. */
interface Tally {
  runs: number;
  checks: number;
  resets: number;
  warnings: number;
  loopWarnings: number;
  /** Checks of a step with a long structured result. */
  largeResults: number;
  /** Checks given something that is not a step, which must throw. */
  refusedArguments: number;
  stopsBy: Map<string, number>;
}

const newTally = (): Tally => ({ runs: 0, checks: 0, resets: 0, warnings: 0, loopWarnings: 0, largeResults: 0, refusedArguments: 0, stopsBy: new Map() });

/**
 * Plays a run through the guard and the reference and compares everything they say; fails at the first difference,
 * naming the run and the event.
 */
/** Ids of the generated runs replayed so far. */
const replayed = new Set<number>();

function replay(run: GeneratedRun, tally: Tally, id?: number): void {
  let time = run.startMs;
  const now = (): number => (run.brokenClock ? Number.NaN : time);
  const productionLog: string[] = [];
  const referenceLog: string[] = [];
  const production = createGuard(run.options(now, productionLog));
  const reference = createReferenceGuard(run.options(now, referenceLog));
  // What the guard returned, as JSON at the time: a later check must not change an answer already given.
  const given: { value: unknown; text: string; where: string }[] = [];

  run.events.forEach((event, position) => {
    const where = `${run.label}, event ${String(position)}`;
    switch (event.kind) {
      case 'check': {
        time += event.advanceMs;
        if (!isStepObject(event.step)) {
          // Not a step at all: the caller's mistake, refused before anything is recorded.
          expect(() => production.check(event.step as GuardStep), where).toThrow(TypeError);
          tally.refusedArguments++;
          break;
        }
        const actual = production.check(event.step as GuardStep);
        const expected = reference.check(event.step as GuardStep);
        expectSame(actual, expected, `${where}: verdict`);
        given.push({ value: actual, text: jsonText(actual), where });
        tally.checks++;
        if (holdsLargeResult(event.step)) tally.largeResults++;
        if (actual.warnings !== undefined) tally.warnings++;
        if (actual.warnings?.some((warning) => warning.code === 'LOOP_WARNING') === true) tally.loopWarnings++;
        const key = actual.stop ? `${actual.reason}/${actual.code}` : 'continue';
        tally.stopsBy.set(key, (tally.stopsBy.get(key) ?? 0) + 1);
        break;
      }
      case 'reset':
        time += event.advanceMs;
        production.reset();
        reference.reset();
        tally.resets++;
        break;
      case 'summary': {
        expectSameState(production, reference, where);
        const summary = production.summary();
        given.push({ value: summary, text: jsonText(summary), where: `${where}: summary()` });
        break;
      }
    }
  });

  expectSameState(production, reference, `${run.label}, at the end`);
  expect(productionLog, `${run.label}: what custom rules were shown`).toStrictEqual(referenceLog);
  for (const { value, text, where } of given) expect(jsonText(value), `${where}: changed after it was returned`).toBe(text);
  tally.runs++;
  if (id !== undefined) replayed.add(id);
}

describe('the guard agrees with the reference implementation', () => {
  const tally = newTally();

  for (let first = 0; first < RUN_COUNT; first += RUNS_PER_TEST) {
    it(`on generated runs ${String(first)} to ${String(first + RUNS_PER_TEST - 1)}: every verdict, summary and history`, () => {
      for (let id = first; id < first + RUNS_PER_TEST; id++) replay(generateRun(SEED, id), tally, id);
    });
  }

  it('on one call repeated over 130 steps, where evidence keeps only the latest step indexes', () => {
    // Generated runs rarely let a repeat run past 100 steps show: maxSteps, budgets and finish reasons win first.
    const repeat = { toolCalls: [{ name: 'search', args: { q: 1 }, result: 'same' }], finishReason: 'tool-calls' };
    const run: GeneratedRun = {
      label: 'a repeat over 130 steps',
      startMs: 0,
      brokenClock: false,
      options: (now) => ({ maxSteps: false, repeatedToolCall: { threshold: 3 }, now }),
      events: Array.from({ length: 130 }, (_, index) => ({ kind: 'check', step: index === 60 ? { text: 'no calls' } : repeat, advanceMs: 1 })),
    };
    replay(run, newTally());
  });

  it('exercised every detector, every stop code, warnings and resets', () => {
    // Runs the blocks above did not replay (when picked out with -t, say) are replayed here, so the tally is whole.
    for (let id = 0; id < RUN_COUNT; id++) if (!replayed.has(id)) replay(generateRun(SEED, id), tally, id);
    const codes = [
      'max-steps/MAX_STEPS',
      'repeated-tool-call/REPEATED_TOOL_CALL',
      'oscillation/OSCILLATION',
      'no-progress/NO_PROGRESS',
      'stagnation/STAGNATION',
      'finish-reason/FINISH_TERMINAL',
      'finish-reason/FINISH_OTHER',
      'finish-reason/FINISH_OTHER_TEXT_ONLY',
      'budget/BUDGET_TOTAL_TOKENS',
      'budget/BUDGET_INPUT_TOKENS',
      'budget/BUDGET_OUTPUT_TOKENS',
      'budget/BUDGET_COST_USD',
      'budget/BUDGET_DURATION_MS',
      'custom/CUSTOM',
      'custom/TOO_CHATTY',
      'custom/FIFTH',
      'custom/NESTED',
    ];
    for (const code of codes) expect(tally.stopsBy.get(code) ?? 0, code).toBeGreaterThanOrEqual(50);
    expect(tally.stopsBy.get('continue') ?? 0).toBeGreaterThanOrEqual(tally.checks / 4);
    expect(tally.warnings).toBeGreaterThanOrEqual(1_000);
    expect(tally.loopWarnings).toBeGreaterThanOrEqual(500);
    expect(tally.resets).toBeGreaterThanOrEqual(200);
    expect(tally.largeResults).toBeGreaterThanOrEqual(100);
    expect(tally.checks).toBeGreaterThanOrEqual(20_000);
  });
});

describe("the reference's budget arithmetic", () => {
  it('rounds each running total to 15 significant digits, so ten steps of 0.1 make 1, and stops at the largest finite number', () => {
    expect(Array.from({ length: 10 }, () => 0.1).reduce(roundedSum, 0)).toBe(1);
    expect(roundedSum(0.1, 0.2)).toBe(0.3);
    expect(roundedSum(0.2, 0.6666666666666666)).toBe(0.866666666666667);
    expect(roundedSum(1e308, 1e308)).toBe(Number.MAX_VALUE);
    expect(roundedProduct(0.1, 3)).toBe(0.3);
    expect(roundedProduct(0.95, 1000.5)).toBe(950.475);
    expect(roundedSum(2 ** 53 - 2, 1)).toBe(2 ** 53 - 1);
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// The same comparison on runs fast-check builds from small pools: a failure shrinks to a short counterexample.

const poolCall = fc.record(
  {
    name: fc.constantFrom('a', 'b', 'c'),
    args: fc.constantFrom<unknown>({ id: 1 }, { id: 2 }, { id: 1, extra: undefined }, undefined),
    result: fc.constantFrom<unknown>(0, 1, 'same'),
    error: fc.constantFrom<unknown>(null, 'boom'),
  },
  { requiredKeys: ['name'] },
);

const poolStep: fc.Arbitrary<GuardStep> = fc.record(
  {
    toolCalls: fc.array(poolCall, { maxLength: 3 }),
    text: fc.constantFrom('', 'same', 'SAME ', 'other'),
    finishReason: fc.constantFrom('tool-calls', 'other', 'stop', 'end_turn', ''),
    usage: fc.record(
      {
        inputTokens: fc.integer({ min: 0, max: 60 }),
        outputTokens: fc.integer({ min: 0, max: 30 }),
        costUsd: fc.constantFrom(0.1, 0.2, 0.05, Number.NaN),
      },
      { requiredKeys: [] },
    ),
    durationMs: fc.constantFrom(0, 10, 0.5, -1),
  },
  { requiredKeys: [] },
);

const poolOptions: fc.Arbitrary<GuardOptions> = fc.record({
  maxSteps: fc.constantFrom<number | false>(false, 8, 30),
  repeatedToolCall: fc.record({
    threshold: fc.integer({ min: 2, max: 5 }),
    requireIdenticalResults: fc.boolean(),
    ignoreErrors: fc.boolean(),
  }),
  oscillation: fc.record({ maxPeriod: fc.integer({ min: 2, max: 5 }), repeats: fc.integer({ min: 2, max: 4 }) }),
  noProgress: fc.record({ threshold: fc.integer({ min: 2, max: 5 }) }),
  finishReason: fc.record({ otherPolicy: fc.constantFrom('stop' as const, 'continue' as const, 'stop-if-text-only' as const) }),
  // Limits and ratios whose floating-point and decimal products agree (see "warnAt threshold" below).
  budget: fc.record({
    maxTotalTokens: fc.constantFrom(200, 500),
    maxCostUsd: fc.record({ limit: fc.constantFrom(0.5, 1), warnAt: fc.constantFrom(0.5, 0.8) }),
    maxDurationMs: fc.constantFrom(40, 100),
    warnAt: fc.constantFrom(0.5, 0.75),
  }),
  historyLimit: fc.constantFrom<number | false>(false, 1, 3),
});

describe('the guard agrees with the reference implementation on fast-check runs', () => {
  it('gives the same verdicts, summary and history', () => {
    const tally = newTally();
    fc.assert(
      fc.property(poolOptions, fc.array(fc.tuple(poolStep, fc.integer({ min: 0, max: 30 })), { maxLength: 40 }), (options, steps) => {
        const run: GeneratedRun = {
          label: 'fast-check run',
          startMs: 0,
          brokenClock: false,
          options: (now) => ({ ...options, now }),
          events: steps.map(([step, advanceMs]) => ({ kind: 'check', step, advanceMs })),
        };
        replay(run, tally);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Places where the guard once disagreed with its documentation. Each is now in the generated runs too; these say the
// documented answer outright, so a regression names its cause.

/** Every verdict of a fresh guard and a fresh reference over the steps, and both at the end. */
function bothOver(options: GuardOptions, steps: readonly unknown[]): { production: Guard; reference: ReferenceGuard; verdicts: [Verdict, Verdict][] } {
  const production = createGuard(options);
  const reference = createReferenceGuard(options);
  const verdicts = steps.map((step): [Verdict, Verdict] => [production.check(step as GuardStep), reference.check(step as GuardStep)]);
  return { production, reference, verdicts };
}

describe('once disagreements between the guard and the README, now agreements', () => {
  it('warnAt threshold: warnings start at the decimal product warnAt × limit (0.1 × 3 is 0.3)', () => {
    const { verdicts } = bothOver({ ...ALL_OFF, budget: { maxCostUsd: { limit: 3, warnAt: 0.1 } } }, [
      { usage: { costUsd: 0.1 } },
      { usage: { costUsd: 0.1 } },
      { usage: { costUsd: 0.1 } },
    ]);
    const [production, reference] = verdicts[2] ?? [];
    expect(production?.warnings?.[0]).toMatchObject({ metric: 'costUsd', value: 0.3, limit: 3 });
    expect(production).toStrictEqual(reference);
  });

  it('a timestamp is kept in history when finite, negative or not', () => {
    const { production, reference } = bothOver({}, [{ timestamp: -5 }]);
    expect(production.history).toStrictEqual([{ timestamp: -5 }]);
    expect(reference.history).toStrictEqual(production.history);
  });

  it('a toolCalls that is not an array is dropped', () => {
    const { production, reference } = bothOver({}, [{ toolCalls: null }, { toolCalls: 'search' }, { toolCalls: { 0: { name: 'a' }, length: 1 } }]);
    expect(production.history).toStrictEqual([{}, {}, {}]);
    expect(reference.history).toStrictEqual(production.history);
  });

  it('totals are rounded to 15 significant digits as each step is added, so a limit a decimal sum reaches is reached', () => {
    const figures = [{ usage: { costUsd: 0.2 } }, { usage: { costUsd: 0.6666666666666666 } }];
    const { production, reference, verdicts } = bothOver({ ...ALL_OFF, budget: { maxCostUsd: 0.866666666666667 } }, figures);
    expect(production.summary().totals.costUsd).toBe(0.866666666666667);
    expect(verdicts[1]?.[0].stop).toBe(true);
    expect(reference.summary().totals).toStrictEqual(production.summary().totals);

    const tenths = bothOver({ ...ALL_OFF, budget: { maxCostUsd: 1 } }, Array.from({ length: 10 }, () => ({ usage: { costUsd: 0.1 } })));
    expect(tenths.verdicts.map(([verdict]) => verdict.stop)).toEqual([...Array.from({ length: 9 }, () => false), true]);
    expect(tenths.reference.summary().totals).toStrictEqual(tenths.production.summary().totals);
  });

  it('stepIndexes keep the latest 100 at most, whatever the threshold', () => {
    const steps = Array.from({ length: 120 }, () => ({ toolCalls: [{ name: 'search', args: { q: 1 } }] }));
    const { verdicts } = bothOver({ maxSteps: false, oscillation: false, noProgress: false, repeatedToolCall: { threshold: 110 } }, steps);
    const [production, reference] = verdicts[119] ?? [];
    expect(production).toMatchObject({ stop: true, reason: 'repeated-tool-call', evidence: { count: 120 } });
    const stepIndexes = production?.stop === true && production.reason === 'repeated-tool-call' ? production.evidence.stepIndexes : [];
    expect(stepIndexes).toEqual(Array.from({ length: 100 }, (_, index) => 20 + index));
    expect(production).toStrictEqual(reference);
  });
});
