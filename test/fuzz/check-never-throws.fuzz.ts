import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGuard, explain, isFault } from '../../src/index.js';
import type { GuardStep, Verdict } from '../../src/index.js';
import { HOSTILE_FACTORIES } from '../support/hostile-values.js';
import { expectPlainJson } from '../support/plain-json.js';
import { isStepObject } from '../support/step-builder.js';
import { anyStep, guardOptions, hostileValue } from './arbitraries.js';
import { fuzzParameters } from './fuzz-settings.js';

/** Everything a caller may do with a verdict and a guard after a check: none of it may throw or lie about JSON. */
function expectUsableOutcome(verdict: Verdict, guard: ReturnType<typeof createGuard>, steps: number): void {
  expectPlainJson(verdict);
  expect(typeof explain(verdict)).toBe('string');
  expect(typeof isFault(verdict)).toBe('boolean');
  if (!verdict.stop) expect(isFault(verdict)).toBe(false);
  const summary = guard.summary();
  expectPlainJson(summary);
  expect(summary.steps).toBe(steps);
  expect(summary.lastVerdict).toStrictEqual(verdict);
  expect(guard.history).toHaveLength(steps);
  expect(Object.isFrozen(guard.history)).toBe(true);
}

/**
 * Checks a value: a step never throws and gives a usable verdict; anything else is the caller's mistake, a
 * `TypeError` that records nothing. Returns how many steps the guard holds after it.
 */
function checkOne(guard: ReturnType<typeof createGuard>, value: unknown, steps: number): number {
  if (!isStepObject(value)) {
    expect(() => guard.check(value as GuardStep)).toThrow(TypeError);
    expect(guard.summary().steps).toBe(steps);
    return steps;
  }
  expectUsableOutcome(guard.check(value as GuardStep), guard, steps + 1);
  return steps + 1;
}

describe('check() never throws on a step and always answers in plain JSON; a non-step is a TypeError', () => {
  it('on sequences of arbitrary steps and non-steps, under arbitrary valid options', () => {
    fc.assert(
      fc.property(guardOptions, fc.array(anyStep, { minLength: 1, maxLength: 12 }), (options, steps) => {
        const guard = createGuard({ ...options, now: () => 0 });
        let held = 0;
        for (const step of steps) held = checkOne(guard, step.build(), held);
      }),
      fuzzParameters(600),
    );
  });

  it('on a hostile value passed as the step, as toolCalls, as a call, or as any field of a call', () => {
    const places: readonly ((value: unknown) => unknown)[] = [
      (value) => value,
      (value) => ({ toolCalls: value }),
      (value) => ({ toolCalls: [value, { name: 'read' }] }),
      (value) => ({ toolCalls: [{ name: 'search', args: value, result: value, error: value }] }),
      (value) => ({ toolCalls: [{ name: value }], text: value, finishReason: value, usage: value, durationMs: value }),
      (value) => ({ usage: { inputTokens: value, outputTokens: value, totalTokens: value, costUsd: value } }),
    ];
    fc.assert(
      fc.property(
        guardOptions,
        fc.array(fc.tuple(hostileValue, fc.nat({ max: places.length - 1 })), { minLength: 1, maxLength: 6 }),
        (options, picks) => {
          const guard = createGuard({ ...options, now: () => 0 });
          let held = 0;
          for (const [value, place] of picks) held = checkOne(guard, places[place]?.(value.build()), held);
        },
      ),
      fuzzParameters(600),
    );
  });

  it('on every hostile value in every place, at least once per run', () => {
    for (const [name, make] of Object.entries(HOSTILE_FACTORIES)) {
      const guard = createGuard();
      const steps = [
        make(),
        { toolCalls: make() },
        { toolCalls: [make()] },
        { toolCalls: [{ name: 'search', args: make(), result: make(), error: make() }] },
        { text: make(), finishReason: make(), usage: make(), durationMs: make(), timestamp: make() },
      ];
      let held = 0;
      for (const step of steps) {
        if (!isStepObject(step)) {
          expect(() => guard.check(step as GuardStep), name).toThrow(TypeError);
          continue;
        }
        let verdict: Verdict | undefined;
        expect(() => (verdict = guard.check(step as GuardStep)), name).not.toThrow();
        held++;
        if (verdict !== undefined) expectUsableOutcome(verdict, guard, held);
      }
    }
  });
});
