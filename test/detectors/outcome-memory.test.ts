import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOutcomeMemory } from '../../src/detectors/outcome-memory.js';

describe('createOutcomeMemory', () => {
  describe('without a window', () => {
    it('says new exactly once per outcome, however long ago it was seen', () => {
      const memory = createOutcomeMemory(undefined);
      expect(memory.remember('a', 0)).toBe(true);
      expect(memory.remember('a', 0)).toBe(false);
      expect(memory.remember('b', 1)).toBe(true);
      expect(memory.remember('a', 1_000_000)).toBe(false);
      expect(memory.size()).toBe(2);
    });

    it('forgets nothing when moved on to a later step', () => {
      const memory = createOutcomeMemory(undefined);
      memory.remember('a', 0);
      memory.moveTo(1_000_000);
      expect(memory.size()).toBe(1);
      expect(memory.isNew('a', 1_000_000)).toBe(false);
    });
  });

  describe('with a window', () => {
    it('remembers the outcomes of the last `window` steps before the current one: N steps back is old, N+1 is new', () => {
      const memory = createOutcomeMemory(3);
      expect(memory.remember('a', 10)).toBe(true);
      expect(memory.remember('a', 13)).toBe(false);
      expect(memory.remember('a', 17)).toBe(true);
      expect(memory.remember('b', 17)).toBe(true);
      expect(memory.remember('b', 17)).toBe(false);
    });

    it('a window of 1 remembers only the step before', () => {
      const memory = createOutcomeMemory(1);
      expect(memory.remember('a', 0)).toBe(true);
      expect(memory.remember('a', 1)).toBe(false);
      expect(memory.remember('b', 2)).toBe(true);
      expect(memory.remember('a', 3)).toBe(true);
    });

    it('a repeat refreshes an outcome, so it stays old while it keeps coming back', () => {
      const memory = createOutcomeMemory(2);
      expect(memory.remember('a', 0)).toBe(true);
      expect(memory.remember('a', 2)).toBe(false);
      expect(memory.remember('a', 4)).toBe(false);
      expect(memory.remember('z', 6)).toBe(true);
      expect(memory.remember('a', 7)).toBe(true);
    });

    it('moved on to a step without recording, forgets what that step no longer looks back to: N steps back stays', () => {
      const memory = createOutcomeMemory(3);
      memory.remember('a', 10);
      memory.remember('b', 12);
      memory.moveTo(13);
      expect(memory.size()).toBe(2);
      memory.moveTo(14);
      expect(memory.size()).toBe(1);
      expect(memory.isNew('b', 15)).toBe(false);
      memory.moveTo(16);
      expect(memory.size()).toBe(0);
      expect(memory.remember('b', 16)).toBe(true);
    });

    it('holds no more than the outcomes of the window, over a long run', () => {
      const memory = createOutcomeMemory(10);
      for (let index = 0; index < 5_000; index++) {
        expect(memory.remember(`x${String(index)}`, index)).toBe(true);
        expect(memory.remember(`y${String(index % 7)}`, index)).toBe(index < 7);
      }
      // x4989..x4999 (this step and the ten before it) and the seven y outcomes.
      expect(memory.size()).toBe(11 + 7);
      expect(memory.remember('x4990', 5_000)).toBe(false);
      expect(memory.remember('x4989', 5_000)).toBe(true);
    });

    it('agrees with a scan of the previous `window` steps on any sequence', () => {
      const steps = fc.array(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 3 }), { maxLength: 60 });
      const gaps = fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 60, maxLength: 60 });
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 6 }), steps, gaps, (window, outcomesPerStep, stepGaps) => {
          const memory = createOutcomeMemory(window);
          const seen: { index: number; outcome: string }[] = [];
          let index = 0;
          outcomesPerStep.forEach((outcomes, position) => {
            index += stepGaps[position] ?? 1;
            for (const outcome of outcomes) {
              const expected = !seen.some((entry) => entry.outcome === outcome && entry.index >= index - window);
              expect(memory.remember(outcome, index)).toBe(expected);
              seen.push({ index, outcome });
            }
          });
        }),
        { numRuns: 300 },
      );
    });
  });
});
