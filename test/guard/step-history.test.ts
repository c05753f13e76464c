import { describe, expect, it } from 'vitest';
import { createStepHistory, freezeStep } from '../../src/guard/step-history.js';
import type { GuardStep } from '../../src/types.js';

const step = (n: number): GuardStep => ({ text: String(n) });
const texts = (steps: readonly GuardStep[]) => steps.map((entry) => entry.text);

describe('createStepHistory', () => {
  describe('without a limit', () => {
    it('keeps every step and hands rules the live array', () => {
      const history = createStepHistory(undefined);
      history.push(step(0));
      const live = history.forRules();
      history.push(step(1));
      expect(history.forRules()).toBe(live);
      expect(texts(live)).toEqual(['0', '1']);
      expect(Object.isFrozen(live)).toBe(false);
    });

    it('snapshots as a frozen copy, made once per recorded step', () => {
      const history = createStepHistory(undefined);
      history.push(step(0));
      const first = history.snapshot();
      expect(Object.isFrozen(first)).toBe(true);
      expect(history.snapshot()).toBe(first);
      history.push(step(1));
      expect(texts(first)).toEqual(['0']);
      expect(texts(history.snapshot())).toEqual(['0', '1']);
    });
  });

  describe('with a limit', () => {
    it('keeps the most recent steps, oldest first, at every length', () => {
      for (const limit of [1, 2, 3, 5]) {
        const history = createStepHistory(limit);
        const all: GuardStep[] = [];
        for (let n = 0; n < 4 * limit + 1; n++) {
          const entry = step(n);
          history.push(entry);
          all.push(entry);
          expect(history.snapshot()).toEqual(all.slice(-limit));
          expect(history.snapshot()[history.snapshot().length - 1]).toBe(entry);
        }
      }
    });

    it('hands rules the frozen snapshot, never more than the limit', () => {
      const history = createStepHistory(2);
      for (let n = 0; n < 5; n++) history.push(step(n));
      const forRules = history.forRules();
      expect(forRules).toBe(history.snapshot());
      expect(Object.isFrozen(forRules)).toBe(true);
      expect(texts(forRules)).toEqual(['3', '4']);
    });
  });
});

describe('freezeStep', () => {
  it('freezes the step, its tool-call array, each call and its usage, and leaves a frozen step as it is', () => {
    const step: GuardStep = { toolCalls: [{ name: 'a', args: { q: 1 } }], usage: { inputTokens: 1 } };
    expect(freezeStep(step)).toBe(step);
    expect([Object.isFrozen(step), Object.isFrozen(step.toolCalls), Object.isFrozen(step.toolCalls?.[0]), Object.isFrozen(step.usage)]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    // Arguments are the caller's: the history shows them as given, unfrozen.
    expect(Object.isFrozen(step.toolCalls?.[0]?.args)).toBe(false);
    expect(freezeStep(freezeStep({}))).toEqual({});
  });

  it('is what a snapshot does to each kept step, and what a restored history does at once', () => {
    const history = createStepHistory(2, [{ usage: {} }]);
    expect(Object.isFrozen(history.forRules()[0])).toBe(true);
    const later: GuardStep = { toolCalls: [] };
    history.push(later);
    expect(Object.isFrozen(later)).toBe(false);
    expect(history.snapshot()[1]).toBe(later);
    expect(Object.isFrozen(later)).toBe(true);
    expect(Object.isFrozen(later.toolCalls)).toBe(true);
  });
});
