import { describe, expect, it } from 'vitest';
import { type Detector, MAX_WARN_BEFORE, optionSection, type StepFacts, warnBeforeOption } from '../../src/detectors/detector.js';
import { DETECTORS } from '../../src/detectors/registry.js';
import type { GuardStep } from '../../src/index.js';
import { call, calls, factsOf } from '../support/step-builder.js';

/** Freezes a value and everything in it, so any write to it throws (modules run in strict mode). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** Options that make each detector keep state, warn and stop within a few steps. */
const SETTINGS: Readonly<Record<string, unknown>> = {
  finishReason: { otherPolicy: 'stop' },
  budget: { maxTotalTokens: { limit: 40, warnAt: 0.25 }, maxDurationMs: 1_000 },
  maxSteps: 6,
  repeatedToolCall: { threshold: 3 },
  oscillation: { maxPeriod: 2, repeats: 2 },
  noProgress: { threshold: 3 },
  stagnation: { window: 3, maxNew: 1 },
  custom: [(history: readonly GuardStep[]) => (history.length > 0 ? { stop: true, code: 'SEEN', evidence: { steps: history.length } } : undefined)],
};

const grep = (pattern: string): GuardStep => calls(call('grep', { pattern }, { result: `No matches for "${pattern}"` }));
/** A run that cycles, repeats, fails the same way, spends tokens, stalls and ends with an unfamiliar finish reason. */
const RUN: readonly GuardStep[] = [
  { ...grep('a'), finishReason: 'tool-calls' },
  grep('b'),
  grep('a'),
  grep('b'),
  calls(call('view', { path: 'x' }), call('view', { path: 'x' })),
  calls(call('view', { path: 'x' }), call('grep', { pattern: 'c' }, { result: 'No matches for "c"' })),
  { text: 'same', finishReason: 'other' },
  { text: 'same' },
  { text: 'same' },
];

/**
 * The step each detector first stops on. The facts come without a run's memory, so every outcome and answer is new:
 * noProgress stalls on text-only steps alone, and stagnation never stops.
 */
const FIRST_STOP: Readonly<Record<string, number>> = {
  'finish-reason': 6,
  budget: 3,
  'max-steps': 5,
  'repeated-tool-call': 5,
  oscillation: 3,
  'no-progress': 8,
  stagnation: -1,
  custom: 0,
};

function factsOfRun(): StepFacts[] {
  return RUN.map((step, index) => factsOf(step, index, { inputTokens: 0, outputTokens: 0, totalTokens: 10 * (index + 1), costUsd: 0, durationMs: 0 }, 100 * index));
}

describe.each(DETECTORS.map((detector) => [detector.kind, detector] as const))('the %s detector keeps the contract', (_kind, detector: Detector) => {
  const options = detector.resolve(SETTINGS[detector.option]);

  it('takes its settings, and is off with false (custom rules: without any)', () => {
    expect(options).not.toBe(false);
    expect(detector.resolve(detector.option === 'custom' ? undefined : false)).toBe(false);
  });

  it('never changes the state it is given, and returns plain JSON for state, summary and findings', () => {
    let state = deepFreeze(detector.start(options));
    const stops: number[] = [];
    for (const [index, facts] of factsOfRun().entries()) {
      const copy = JSON.stringify(state);
      const judgement = detector.check(state, facts, options);
      // A peek: checked again from the same state, the same judgement.
      expect(detector.check(state, facts, options)).toStrictEqual(judgement);
      expect(JSON.stringify(state)).toBe(copy);
      expect(JSON.parse(JSON.stringify(judgement.state)) as unknown).toStrictEqual(judgement.state);
      if (judgement.stop !== undefined) stops.push(index);
      state = deepFreeze(judgement.state);
      const summary = detector.summary(state, options, { steps: index + 1, distinctOutcomes: 0, distinctAnswers: 0 });
      expect(JSON.parse(JSON.stringify(summary)) as unknown).toStrictEqual(summary);
    }
    expect(stops[0] ?? -1).toBe(FIRST_STOP[detector.kind]);
  });

  it('restores every state it reaches, from plain JSON, as it was', () => {
    let state = detector.start(options);
    expect(detector.restore(JSON.parse(JSON.stringify(state)), options, 'here')).toStrictEqual(state);
    for (const facts of factsOfRun()) {
      state = detector.check(state, facts, options).state;
      expect(detector.restore(JSON.parse(JSON.stringify(state)), options, 'here')).toStrictEqual(state);
    }
  });

  it('refuses a saved state of another kind, naming the path it was given', () => {
    expect(() => detector.restore('not a state', options, 'detectors.x')).toThrow(/^agent-loopguard: snapshot field "detectors\.x" must be /);
  });
});

describe('option helpers of the contract', () => {
  it('optionSection: false is off, undefined and true are the defaults, an object is read for known keys only', () => {
    expect(optionSection('s', false, ['a'])).toBe(false);
    for (const value of [undefined, true]) {
      const section = optionSection('s', value, ['a']);
      expect(section === false ? 'off' : { ...section }).toEqual({});
      expect(section === false ? 'off' : Object.getPrototypeOf(section)).toBeNull();
    }
    const section = optionSection('s', { a: 1 }, ['a']);
    expect(section === false ? 'off' : { ...section }).toEqual({ a: 1 });
    expect(() => optionSection('s', { b: 1 }, ['a'])).toThrow('unknown option "s.b" (known: a).');
    expect(() => optionSection('s', 0, ['a'])).toThrow('option "s" must be an object, got 0.');
  });

  it(`warnBeforeOption: false is never, absent is the fallback, else an integer from 1 to ${String(MAX_WARN_BEFORE)}`, () => {
    expect(warnBeforeOption('w', false, 1)).toBe(false);
    expect(warnBeforeOption('w', undefined, 2)).toBe(2);
    expect(warnBeforeOption('w', 1, 2)).toBe(1);
    expect(warnBeforeOption('w', MAX_WARN_BEFORE, 2)).toBe(MAX_WARN_BEFORE);
    expect(() => warnBeforeOption('w', MAX_WARN_BEFORE + 1, 2)).toThrow('option "w" must be an integer from 1 to 1000, got 1001.');
    expect(() => warnBeforeOption('w', true, 2)).toThrow('option "w" must be an integer from 1 to 1000, got true.');
  });
});
