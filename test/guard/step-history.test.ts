import { describe, expect, it } from 'vitest';
import { createStepHistory } from '../../src/guard/step-history.js';
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
  describe('freezing', () => {
    const isFrozenStep = (entry: GuardStep): boolean[] => [
      Object.isFrozen(entry),
      Object.isFrozen(entry.toolCalls),
      ...(entry.toolCalls ?? []).map((call) => Object.isFrozen(call)),
      Object.isFrozen(entry.usage),
    ];
    const withParts = (n: number): GuardStep => ({ text: String(n), toolCalls: [{ name: 'a' }, { name: 'b' }], usage: { inputTokens: n } });

    it('records steps as they are and freezes them, every part, before it shows them', () => {
      for (const limit of [undefined, 2]) {
        const history = createStepHistory(limit, [withParts(0)]);
        const recorded = withParts(1);
        history.push(recorded);
        expect(Object.isFrozen(recorded)).toBe(false);
        history.forRules();
        expect(isFrozenStep(recorded)).toEqual([true, true, true, true, true]);
        const later = withParts(2);
        history.push(later);
        expect(Object.isFrozen(later)).toBe(false);
        for (const entry of history.snapshot()) expect(isFrozenStep(entry)).toEqual([true, true, true, true, true]);
      }
    });

    it('freezes a step recorded after one that was taken back', () => {
      const history = createStepHistory(undefined);
      history.push(withParts(0));
      const takeBack = history.push(withParts(1));
      history.forRules();
      takeBack();
      const next = withParts(2);
      history.push(next);
      expect(history.forRules().at(-1)).toBe(next);
      expect(isFrozenStep(next)).toEqual([true, true, true, true, true]);
    });
  });
});
