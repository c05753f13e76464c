/**
 * Issue 29, item 1: a value whose reading throws is unequal to everything, in one process and across restores. The
 * red team's case: a status poll whose result (or argument) cannot be read, checked in the durable pattern (a guard
 * restored from its snapshot for every step), was stopped as a repeat from step 2; the uninterrupted guard never
 * stops it. Restoring in another process is the property test of restore-in-worker.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createGuard, type GuardSnapshot, type GuardStep, type Verdict } from '../../src/index.js';

/** An object whose one property throws when read: its canonical form holds a placeholder. */
function unreadable(): object {
  const value = {};
  Object.defineProperty(value, 'status', {
    enumerable: true,
    get() {
      throw new Error('the status is gone');
    },
  });
  return value;
}

const pollWithUnreadableResult = (): GuardStep => ({ toolCalls: [{ name: 'poll', args: { job: 7 }, result: unreadable() }] });
const pollWithUnreadableArgs = (): GuardStep => ({ toolCalls: [{ name: 'poll', args: unreadable(), result: 'pending' }] });

// A fixed clock, so a snapshot's times are the same in both runs and whole snapshots can be compared.
const OPTIONS = { now: () => 0 };

// Both runs start from one new guard's snapshot, so they share its key and their snapshots can be compared whole.
const START = createGuard(OPTIONS).snapshot();

/** Every step checked by one guard: its verdicts, and its snapshot at the end. */
function uninterrupted(steps: readonly GuardStep[]): { verdicts: Verdict[]; snapshot: GuardSnapshot } {
  const guard = createGuard(OPTIONS, { snapshot: START });
  const verdicts = steps.map((step) => guard.check(step));
  return { verdicts, snapshot: guard.snapshot() };
}

/** Every step checked by a guard restored from the JSON of the snapshot the step before left, as a durable run does. */
function durable(steps: readonly GuardStep[]): { verdicts: Verdict[]; snapshot: GuardSnapshot } {
  let saved = JSON.stringify(START);
  const verdicts = steps.map((step) => {
    const guard = createGuard(OPTIONS, { snapshot: JSON.parse(saved) as GuardSnapshot });
    const verdict = guard.check(step);
    saved = JSON.stringify(guard.snapshot());
    return verdict;
  });
  return { verdicts, snapshot: JSON.parse(saved) as GuardSnapshot };
}

describe('unreadable values, issue 29 item 1', () => {
  for (const [name, make] of [
    ['result', pollWithUnreadableResult],
    ['arguments', pollWithUnreadableArgs],
  ] as const) {
    it(`never stops or warns on a poll whose ${name} cannot be read, checked on or restored for every step`, () => {
      const steps = Array.from({ length: 8 }, make);
      const live = uninterrupted(steps);
      expect(live.verdicts).toEqual(Array.from({ length: 8 }, () => ({ stop: false })));
      const restored = durable(steps);
      expect(restored.verdicts).toEqual(live.verdicts);
      // The same memory, placeholder for placeholder: the durable run is the uninterrupted one.
      expect(restored.snapshot).toEqual(live.snapshot);
    });
  }

  it('numbers placeholders under the index of the step read, so a restored guard hands out none its snapshot holds', () => {
    const { snapshot } = uninterrupted(Array.from({ length: 3 }, pollWithUnreadableArgs));
    const placeholders = new Set(JSON.stringify(snapshot).match(/\[Unreadable:[0-9.]+\]/g));
    expect([...placeholders].sort()).toEqual(['[Unreadable:0.0]', '[Unreadable:1.0]', '[Unreadable:2.0]']);
  });

  it('still stops a poll whose result reads the same every time: only unreadable parts are kept from blanking', () => {
    const guard = createGuard(OPTIONS);
    const poll = (at: number): GuardStep => ({ toolCalls: [{ name: 'poll', args: { job: 7 }, result: { status: 'pending', at } }] });
    expect([guard.check(poll(1)).stop, guard.check(poll(2)).stop, guard.check(poll(3))]).toMatchObject([false, false, { stop: true, code: 'REPEATED_TOOL_CALL' }]);
  });

  it('lets one response repeat a call with unreadable arguments through screen(): no two placeholders are equal', () => {
    const guard = createGuard(OPTIONS);
    guard.check(pollWithUnreadableArgs());
    guard.check(pollWithUnreadableArgs());
    const screen = guard.screen();
    const calls = Array.from({ length: 4 }, () => screen.judge({ name: 'poll', args: unreadable() }));
    expect(calls).toEqual(Array.from({ length: 4 }, () => ({ block: false })));
    expect(guard.judgeCall({ name: 'poll', args: unreadable() }, [{ name: 'poll', args: unreadable() }])).toEqual({ block: false });
  });
});
