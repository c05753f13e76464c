import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard } from '../../src/index.js';
import { guardOptions, plainStep } from './arbitraries.js';
import { fuzzParameters } from './fuzz-settings.js';

/** A clock the test moves by hand, so wall-clock budgets behave the same in both guards. */
function manualClock(): { now: () => number; set: (time: number) => void } {
  let time = 0;
  return { now: () => time, set: (next) => (time = next) };
}

describe('reset()', () => {
  it('makes a used guard answer exactly like a new one', () => {
    fc.assert(
      fc.property(
        guardOptions,
        fc.array(plainStep, { maxLength: 15 }),
        fc.array(plainStep, { minLength: 1, maxLength: 15 }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 15, maxLength: 15 }),
        (options, before, after, gaps) => {
          const usedClock = manualClock();
          const freshClock = manualClock();
          const used = createGuard({ ...options, now: usedClock.now });
          usedClock.set(1_000);
          for (const step of before) used.check(step);

          // Both guards start their run at the same time and see each step at the same offset.
          const start = 50_000;
          usedClock.set(start);
          used.reset();
          expect(used.history).toEqual([]);
          expect(used.summary()).toEqual(createGuard({ ...options, now: () => 0 }).summary());

          freshClock.set(start);
          const fresh = createGuard({ ...options, now: freshClock.now });
          let time = start;
          after.forEach((step, index) => {
            time += gaps[index] ?? 0;
            usedClock.set(time);
            freshClock.set(time);
            expect(used.check(step)).toStrictEqual(fresh.check(step));
            expect(used.summary()).toStrictEqual(fresh.summary());
          });
          expect(used.history).toStrictEqual(fresh.history);
        },
      ),
      fuzzParameters(1000),
    );
  });
});
