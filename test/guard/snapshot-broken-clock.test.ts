/**
 * KNOWN BUG (found while building examples/durable; src/ left unchanged on purpose): a guard whose clock reads a
 * number that is not finite (`NaN`, `Infinity`) takes a snapshot it refuses to restore.
 *
 * `check` copes with such a clock (the wall-clock part of `maxDurationMs` counts as 0, see step-facts.ts), but
 * `startedAt` keeps the raw reading; `snapshot()` copies itself through JSON, which writes `NaN` as `null`, so the
 * snapshot's `startedAt` is `null` (its type says `number`) and `createGuard(options, { snapshot })` throws
 * `snapshot field "startedAt" must be a finite number, got null`. Found by restoring from a JSON round trip before
 * every check of the differential test's generated runs: 20 of 600 runs (the ones with `brokenClock`) fail at step 0;
 * every other run, custom rules aside, matches the uninterrupted guard at every step.
 */
import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions } from '../../src/index.js';

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
