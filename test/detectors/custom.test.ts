import { describe, expect, it, vi } from 'vitest';
import { custom } from '../../src/detectors/custom.js';
import { createGuard, type CustomDetector, type GuardStep } from '../../src/index.js';
import { ALL_OFF, factsOf, text, tool } from '../support/step-builder.js';

describe('custom', () => {
  it('receives the history with the current step last, and the current step', () => {
    const seen: [number, GuardStep | undefined, GuardStep][] = [];
    const guard = createGuard({ ...ALL_OFF, custom: (history, step) => void seen.push([history.length, history.at(-1), step]) });
    guard.check(text('one'));
    guard.check(tool('a'));
    expect(seen).toHaveLength(2);
    expect(seen[0]?.[0]).toBe(1);
    expect(seen[1]?.[0]).toBe(2);
    expect(seen[1]?.[1]).toBe(seen[1]?.[2]);
    expect(seen[1]?.[2]).toEqual({ toolCalls: [{ name: 'a', args: { id: 1 } }] });
  });

  it('turns a stop into a custom verdict with its code, detail and evidence', () => {
    const guard = createGuard({
      ...ALL_OFF,
      custom: (history) =>
        history.length >= 2 ? { stop: true, code: 'TOO_LONG', detail: 'Two steps is enough.', evidence: { n: 2 } } : undefined,
    });
    expect(guard.check({})).toEqual({ stop: false });
    expect(guard.check({})).toEqual({ stop: true, reason: 'custom', code: 'TOO_LONG', detail: 'Two steps is enough.', evidence: { n: 2 } });
  });

  it('fills in code, detail and evidence when they are missing or unusable', () => {
    const guard = createGuard({ ...ALL_OFF, custom: () => ({ stop: true, code: '', detail: 7 as never }) });
    expect(guard.check({})).toEqual({
      stop: true,
      reason: 'custom',
      code: 'CUSTOM',
      detail: 'A custom detector stopped the run.',
      evidence: {},
    });
  });

  it.each([undefined, null, { stop: false }])('continues on %j', (answer) => {
    const guard = createGuard({ ...ALL_OFF, custom: (() => answer) as unknown as CustomDetector });
    expect(guard.check({})).toEqual({ stop: false });
  });

  it.each([
    [true, 'true'],
    ['stop', '"stop"'],
    [{ stop: 'yes' }, 'a value of type object'],
    [1, '1'],
  ])('throws a TypeError naming what to return when a rule returns %j', (answer, described) => {
    const guard = createGuard({ ...ALL_OFF, custom: [() => undefined, (() => answer) as unknown as CustomDetector] });
    expect(() => guard.check({})).toThrow(
      new TypeError(
        `agent-loopguard: custom rule 1 must return undefined, { stop: false } or { stop: true, code, detail, evidence }, got ${described}.`,
      ),
    );
  });

  it('runs every detector of an array on every step; the first stop wins', () => {
    const second = vi.fn(() => ({ stop: true as const, code: 'SECOND' }));
    const guard = createGuard({ ...ALL_OFF, custom: [() => ({ stop: true, code: 'FIRST' }), second] });
    expect(guard.check({})).toMatchObject({ code: 'FIRST' });
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('runs after the built-in detectors and loses to them on the same step', () => {
    const custom = vi.fn(() => ({ stop: true as const }));
    const guard = createGuard({ ...ALL_OFF, maxSteps: 1, custom });
    expect(guard.check({})).toMatchObject({ reason: 'max-steps' });
    expect(custom).toHaveBeenCalledTimes(1);
  });

  it('lets errors it throws propagate out of check', () => {
    const guard = createGuard({
      ...ALL_OFF,
      custom: () => {
        throw new RangeError('rule broke');
      },
    });
    expect(() => guard.check({})).toThrow(RangeError);
  });

  it('reports how many rules there are and how often they stopped', () => {
    const guard = createGuard({ ...ALL_OFF, custom: [() => undefined, () => ({ stop: true })] });
    guard.check({});
    guard.check({});
    expect(guard.summary().detectors.custom).toEqual({ detectors: 2, stops: 2 });
    guard.reset();
    expect(guard.summary().detectors.custom).toEqual({ detectors: 2, stops: 0 });
  });
});

describe('custom through the detector contract', () => {
  const rulesOf = (value: unknown): readonly CustomDetector[] => {
    const rules = custom.resolve(value);
    if (rules === false) throw new Error('custom is on');
    return rules;
  };

  it('gives just the state it was given for rules that continue, without counting a stop', () => {
    const rules = rulesOf([() => undefined, () => ({ stop: false })]);
    const start = custom.start(rules);
    expect(custom.check(start, factsOf({ text: 'x' }), rules)).toStrictEqual({ state: start });
    expect(custom.summary(start, rules, { steps: 1, distinctOutcomes: 0, distinctAnswers: 0 })).toEqual({ detectors: 2, stops: 0 });
  });

  it('counts a stop in a new state, leaving the one it was given as it was', () => {
    const rules = rulesOf(() => ({ stop: true, code: 'MINE', detail: 'Mine.', evidence: { n: 1 } }));
    const start = custom.start(rules);
    expect(custom.check(start, factsOf({}), rules)).toStrictEqual({ state: { stops: 1 }, stop: { code: 'MINE', detail: 'Mine.', evidence: { n: 1 } } });
    expect(start).toEqual({ stops: 0 });
  });

  it('is off without rules or with an empty list, ties a snapshot to how many rules there are, and restores its count', () => {
    expect(custom.resolve(undefined)).toBe(false);
    expect(custom.resolve([])).toBe(false);
    const rules = rulesOf([() => undefined, () => undefined]);
    expect(custom.fingerprint?.(rules)).toBe(2);
    expect(custom.judgesCalls(rules)).toBe(false);
    expect(custom.restore({ stops: 3 }, rules, 'here')).toEqual({ stops: 3 });
    expect(() => custom.restore({ stops: 1.5 }, rules, 'here')).toThrow('snapshot field "here.stops" must be an integer from 0');
    expect(() => custom.restore(null, rules, 'here')).toThrow('snapshot field "here" must be an object, got null.');
  });
});

describe('custom verdict defaults', () => {
  it.each([
    ['no code or detail', {}],
    ['empty strings', { code: '', detail: '' }],
    ['non-string values', { code: 42, detail: { text: 'x' } }],
  ])('fills in the defaults for %s', (_label, fields) => {
    const guard = createGuard({ ...ALL_OFF, custom: () => ({ stop: true, ...fields }) as never });
    expect(guard.check({})).toStrictEqual({
      stop: true,
      reason: 'custom',
      code: 'CUSTOM',
      detail: 'A custom detector stopped the run.',
      evidence: {},
    });
  });
});

describe('custom evidence is kept as plain JSON', () => {
  it('turns evidence holding a bigint or a cycle into JSON that verdicts and summaries can write', () => {
    const cycle: Record<string, unknown> = { step: 1 };
    cycle.again = cycle;
    const guard = createGuard({ ...ALL_OFF, custom: () => ({ stop: true, evidence: { tokens: 12n, cycle } }) });
    const verdict = guard.check({});
    expect(verdict).toMatchObject({ evidence: { tokens: '12n', cycle: { step: 1, again: '[Circular]' } } });
    expect(() => JSON.stringify(verdict)).not.toThrow();
    expect(() => JSON.stringify(guard.summary())).not.toThrow();
    expect(JSON.parse(JSON.stringify(guard.summary().lastVerdict))).toStrictEqual(verdict);
  });
});
