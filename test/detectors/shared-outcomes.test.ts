import { describe, expect, it } from 'vitest';
import type { StepFacts } from '../../src/detectors/detector.js';
import { createSharedOutcomes } from '../../src/detectors/shared-outcomes.js';
import { call, calls, factsOf, text } from '../support/step-builder.js';

const found = (id: number, result = 'ok'): ReturnType<typeof call> => call('lookup', { id }, { result });

describe('createSharedOutcomes', () => {
  it('answers per call: new unless an earlier step or an earlier call of the same step brought the outcome', () => {
    const outcomes = createSharedOutcomes(undefined);
    expect(outcomes.newness(factsOf(calls(found(1), found(1), found(2)), 0), true)).toEqual([true, false, true]);
    expect(outcomes.newness(factsOf(calls(found(2), found(3), found(1, 'changed')), 1), true)).toEqual([false, true, true]);
    expect(outcomes.newness(factsOf(text('no calls'), 2), true)).toEqual([]);
    expect(outcomes.size()).toBe(4);
  });

  it('works a step out once: asked again about the same step, in the same way, it gives the same answer', () => {
    const outcomes = createSharedOutcomes(undefined);
    const facts = factsOf(calls(found(1)), 0);
    const first = outcomes.newness(facts, true);
    // Recorded twice, the second answer would say "not new": the second detector to ask must hear what the first did.
    expect(outcomes.newness(facts, true)).toBe(first);
    expect(first).toEqual([true]);
    expect(outcomes.size()).toBe(1);
  });

  it('tells steps apart by their calls and index, not by the facts object the guard loads each step into', () => {
    const outcomes = createSharedOutcomes(undefined);
    const first = factsOf(calls(found(1)), 0);
    expect(outcomes.newness(first, true)).toEqual([true]);
    // The same calls at another index are another step: asked anew, and the outcome is no longer new.
    const sameCalls = { ...first, index: 1, calls: first.calls } as StepFacts;
    expect(outcomes.newness(sameCalls, true)).toEqual([false]);
    // Other calls with the same outcome at the same index are another step too.
    expect(outcomes.newness(factsOf(calls(found(1)), 1), true)).toEqual([false]);
    expect(outcomes.size()).toBe(1);
  });

  it('peeks without recording, tracking the outcomes new in the peeked step itself', () => {
    const outcomes = createSharedOutcomes(undefined);
    outcomes.newness(factsOf(calls(found(1)), 0), true);
    const peeked = factsOf(calls(found(1), found(2), found(2)), 1);
    expect(outcomes.newness(peeked, false)).toEqual([false, true, false]);
    expect(outcomes.size()).toBe(1);
    // A peek's answer is not a recorded one: recording the same step afterwards records it.
    expect(outcomes.newness(peeked, true)).toEqual([false, true, false]);
    expect(outcomes.size()).toBe(2);
  });

  it('with a window, forgets outcomes no step of the window brought: N steps back is old, N+1 is new', () => {
    const outcomes = createSharedOutcomes(2);
    expect(outcomes.newness(factsOf(calls(found(1)), 0), true)).toEqual([true]);
    expect(outcomes.newness(factsOf(calls(found(1)), 2), true)).toEqual([false]);
    expect(outcomes.newness(factsOf(calls(found(1)), 5), true)).toEqual([true]);
  });

  it('saves and restores what it remembers, and names the snapshot field when a saved memory does not fit', () => {
    const outcomes = createSharedOutcomes(undefined);
    outcomes.newness(factsOf(calls(found(1)), 0), true);
    const restored = createSharedOutcomes(undefined);
    restored.restore(JSON.parse(JSON.stringify(outcomes.save())), 'detectors.no-progress.outcomes');
    expect(restored.size()).toBe(1);
    expect(restored.newness(factsOf(calls(found(1), found(2)), 1), true)).toEqual([false, true]);
    expect(() => {
      createSharedOutcomes(undefined).restore(undefined, 'detectors.stagnation.outcomes');
    }).toThrow(new TypeError('agent-loopguard: snapshot field "detectors.stagnation.outcomes" must be an array, got undefined.'));
    expect(() => {
      createSharedOutcomes(3).restore([], 'detectors.no-progress.outcomes');
    }).toThrow(new TypeError('agent-loopguard: snapshot field "detectors.no-progress.outcomes" must be an object, got an array.'));
  });

  it('answers from the restored memory, not from an answer worked out before the restore', () => {
    const outcomes = createSharedOutcomes(undefined);
    const facts = factsOf(calls(found(1)), 0);
    expect(outcomes.newness(facts, true)).toEqual([true]);
    outcomes.restore([], 'outcomes');
    expect(outcomes.size()).toBe(0);
    expect(outcomes.newness(facts, true)).toEqual([true]);
    expect(outcomes.size()).toBe(1);
  });
});
