import { describe, expect, it, vi } from 'vitest';
import { type Detector, type Finding, optionSection } from '../../src/detectors/detector.js';
import { DETECTORS } from '../../src/detectors/registry.js';
import { createGuardWith } from '../../src/guard/create-guard.js';
import { createGuard, stableHash, type GuardOptions, type StopReason } from '../../src/index.js';
import { integer, integerOption, record } from '../../src/utils/validate.js';
import { ALL_OFF, tool } from '../support/step-builder.js';

/**
 * A detector as a contributor would add one: its own kind, option and state, and nothing else of the project changed.
 * It counts tool calls and stops once `limit` have run.
 */
interface CountOptions {
  readonly limit: number;
}
interface CountState {
  readonly count: number;
}

const KIND = 'test-detector' as StopReason;

const testDetector: Detector<StopReason, CountOptions, CountState> = {
  kind: KIND,
  option: 'testDetector',
  resolve(value) {
    const options = optionSection('testDetector', value, ['limit']);
    return options === false ? false : { limit: integerOption('testDetector.limit', options.limit, 1, 3) };
  },
  judgesCalls: () => true,
  start: () => ({ count: 0 }),
  check(state, facts, { limit }) {
    const count = state.count + facts.calls.length;
    if (count < limit) return { state: { count } };
    const stop = { code: 'TEST_STOP', detail: `${String(count)} calls ran.`, evidence: { count, limit } } as unknown as Finding;
    return { state: { count }, stop };
  },
  summary: ({ count }, { limit }, run) => ({ count, limit, steps: run.steps }),
  restore: (saved, _options, path) => record({ count: integer() })(saved, path),
  hint: () => 'Count less.',
};

const REGISTRY = [...DETECTORS, testDetector as unknown as Detector];
/** A guard over the registry with the test detector added, every built-in detector off unless given. */
const guardWith = (options: Record<string, unknown>, snapshot?: unknown) =>
  createGuardWith(REGISTRY, { ...ALL_OFF, now: () => 0, ...options }, snapshot === undefined ? undefined : { snapshot });

describe('a detector added to the registry, and to nothing else', () => {
  it('has its option known and validated, under its own name', () => {
    expect(() => createGuard({ testDetector: {} } as GuardOptions)).toThrow('unknown option "testDetector"');
    expect(() => guardWith({ testDetector: { limit: 0 } })).toThrow(new TypeError('agent-loopguard: option "testDetector.limit" must be an integer of at least 1, got 0.'));
    expect(() => guardWith({ testDetector: { limit: 2, other: 1 } })).toThrow('unknown option "testDetector.other" (known: limit).');
    expect(() => guardWith({ testDetector: 'on' })).toThrow('option "testDetector" must be an object, got "on".');
  });

  it('stops the run, with its kind as the reason, after every detector before it in the registry', () => {
    const guard = guardWith({ testDetector: { limit: 2 } });
    expect(guard.check(tool('a'))).toEqual({ stop: false });
    expect(guard.check(tool('b'))).toEqual({ stop: true, reason: KIND, code: 'TEST_STOP', detail: '2 calls ran.', evidence: { count: 2, limit: 2 } });
    expect(guard.summary()).toMatchObject({ stops: 1, lastVerdict: { reason: KIND } });
    const later = guardWith({ testDetector: { limit: 1 }, maxSteps: 1 });
    expect(later.check(tool('a'))).toMatchObject({ reason: 'max-steps' });
  });

  it('judges calls before they run when it says it can', () => {
    const guard = guardWith({ testDetector: { limit: 2 } });
    guard.check(tool('a'));
    expect(guard.judgeCall({ name: 'b' })).toEqual({ block: true, reason: KIND, code: 'TEST_STOP', detail: '2 calls ran.', message: 'Not run: this call would carry on a loop. Try a different approach, or answer with what you have.', evidence: { count: 2, limit: 2 } });
    expect(guard.summary().detectors[KIND]).toEqual({ count: 1, limit: 2, steps: 1 });
  });

  it('shows its state in summary() and snapshot(), its defaults filled in', () => {
    const guard = guardWith({ testDetector: {} });
    expect(guard.summary().detectors[KIND]).toEqual({ count: 0, limit: 3, steps: 0 });
    guard.check({ toolCalls: [{ name: 'a' }, { name: 'b' }] });
    expect(guard.summary().detectors[KIND]).toEqual({ count: 2, limit: 3, steps: 1 });
    expect(guard.snapshot().detectors[KIND]).toEqual({ count: 2 });
    expect(Object.keys(guard.snapshot().detectors)).toEqual([KIND]);
  });

  it('is off with false: absent from summary and snapshot, and "off" in the options a snapshot is tied to', () => {
    const guard = guardWith({ testDetector: false });
    expect(guard.summary().detectors).toEqual({});
    expect(guard.snapshot().detectors).toEqual({});
    expect(guard.snapshot().options.testDetector).toBe('off');
  });

  it('ties snapshots to its options: one taken with limit 3 is refused under limit 4, naming testDetector.limit', () => {
    const guard = guardWith({ testDetector: { limit: 3 } });
    guard.check(tool('a'));
    const snapshot = JSON.parse(JSON.stringify(guard.snapshot())) as { options: Record<string, string> };
    expect(snapshot.options['testDetector.limit']).toBe(stableHash(3).slice(0, 12));
    expect(() => guardWith({ testDetector: { limit: 4 } }, snapshot)).toThrow(
      new TypeError('agent-loopguard: the snapshot was taken under other options: "testDetector.limit" differs. Restore it with the options it was taken with.'),
    );
    expect(() => guardWith({ testDetector: false }, snapshot)).toThrow('"testDetector" differs');
    expect(() => guardWith({ testDetector: {} }, snapshot)).not.toThrow();
  });

  it('gets its saved state back through its own restore, and the run goes on from it', () => {
    const guard = guardWith({ testDetector: { limit: 3 } });
    guard.check(tool('a'));
    guard.check(tool('b'));
    const snapshot = JSON.parse(JSON.stringify(guard.snapshot())) as { detectors: Record<string, unknown> };
    const restore = vi.spyOn(testDetector, 'restore');
    try {
      const restored = guardWith({ testDetector: { limit: 3 } }, snapshot);
      expect(restore).toHaveBeenCalledTimes(1);
      expect(restore).toHaveBeenCalledWith({ count: 2 }, { limit: 3 }, `detectors.${KIND}`, { steps: 2, toolCalls: 2 });
      expect(restored.summary().detectors[KIND]).toEqual({ count: 2, limit: 3, steps: 2 });
      expect(restored.check(tool('c'))).toMatchObject({ stop: true, reason: KIND, evidence: { count: 3 } });
    } finally {
      restore.mockRestore();
    }
  });

  it('refuses a snapshot whose saved state does not fit, naming the field under detectors.<kind>', () => {
    const guard = guardWith({ testDetector: {} });
    guard.check(tool('a'));
    const snapshot = JSON.parse(JSON.stringify(guard.snapshot())) as { detectors: Record<string, unknown> };
    snapshot.detectors[KIND] = { count: -1 };
    expect(() => guardWith({ testDetector: {} }, snapshot)).toThrow(`snapshot field "detectors.${KIND}.count" must be an integer from 0`);
    snapshot.detectors[KIND] = 'two';
    expect(() => guardWith({ testDetector: {} }, snapshot)).toThrow(`snapshot field "detectors.${KIND}" must be an object, got "two".`);
    Reflect.deleteProperty(snapshot.detectors, KIND);
    expect(() => guardWith({ testDetector: {} }, snapshot)).toThrow(`snapshot field "detectors.${KIND}" must be an enabled detector's saved state, got undefined.`);
  });

  it('keeps its state through a peek and a refused judgement, and hands check a state it never sees changed', () => {
    const guard = guardWith({ testDetector: { limit: 5 } });
    guard.check(tool('a'));
    const before = JSON.stringify(guard.snapshot());
    const check = vi.spyOn(testDetector, 'check');
    try {
      expect(guard.peek({ toolCalls: [{ name: 'b' }, { name: 'c' }] })).toEqual({ stop: false });
      expect(guard.peek({ toolCalls: [{ name: 'b' }, { name: 'c' }, { name: 'd' }, { name: 'e' }] })).toMatchObject({ stop: true, evidence: { count: 5 } });
      expect(guard.judgeCall({ name: 'x' }, [{ name: 'b' }, { name: 'c' }, { name: 'd' }])).toMatchObject({ block: true, evidence: { count: 5 } });
      expect(JSON.stringify(guard.snapshot())).toBe(before);
      expect(guard.summary().detectors[KIND]).toEqual({ count: 1, limit: 5, steps: 1 });
      // Every check was handed the recorded state, never one a peek left behind.
      expect(check.mock.calls.map(([state]) => state)).toEqual(check.mock.calls.map(() => ({ count: 1 })));
      expect(check.mock.calls.length).toBeGreaterThanOrEqual(4);
    } finally {
      check.mockRestore();
    }
    expect(guard.check(tool('b'))).toEqual({ stop: false });
    expect(guard.summary().detectors[KIND]).toEqual({ count: 2, limit: 5, steps: 2 });
  });

  it('starts over on reset', () => {
    const guard = guardWith({ testDetector: {} });
    guard.check(tool('a'));
    guard.reset();
    expect(guard.summary().detectors[KIND]).toEqual({ count: 0, limit: 3, steps: 0 });
  });
});
