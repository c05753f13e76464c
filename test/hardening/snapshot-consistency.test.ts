/**
 * Issue 29, item 5: a restored snapshot is checked for consistency, not only shape. The red team's snapshots passed
 * every check and described impossible states: a truncated stagnation window (a false stop on the next healthy step),
 * an outcome dated after the last step (memory that never forgets), a 3,000,000-digit cost (every later check slow), a
 * `lastVerdict` holding a bigint or a cycle (`summary()` not JSON, `snapshot()` throwing), a throwing getter (its own
 * error instead of a `TypeError` naming the field). Each is now refused with a `TypeError` naming the field.
 */
import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions, type GuardSnapshot, type GuardStep } from '../../src/index.js';

type Mutable = Record<string, unknown> & { detectors: Record<string, Record<string, unknown>> };

const OPTIONS: GuardOptions = { now: () => 0, stagnation: { window: 3, maxNew: 1 } };

/** Six steps of new lookups that all find nothing: stagnation's window of 3 is full, nothing stopped yet. */
function steps(): GuardStep[] {
  return Array.from({ length: 6 }, (_, index) => ({
    toolCalls: [{ name: 'lookup', args: { id: index }, result: index < 4 ? `found ${String(index)}` : 'No results found.' }],
    usage: { inputTokens: 10, costUsd: 0.1 },
  }));
}

/** A fresh copy of a healthy guard's snapshot, to spoil one field of. */
function saved(): Mutable {
  const guard = createGuard(OPTIONS);
  for (const step of steps()) guard.check(step);
  return JSON.parse(JSON.stringify(guard.snapshot())) as Mutable;
}

function restore(snapshot: unknown): ReturnType<typeof createGuard> {
  return createGuard(OPTIONS, { snapshot: snapshot as GuardSnapshot });
}

/** A proxy of `{ a: 1 }` whose descriptor of `a` can be had once, then throws. */
function throwsOnSecondLook(): object {
  let looks = 0;
  return new Proxy(
    { a: 1 },
    {
      getOwnPropertyDescriptor(target, key) {
        looks++;
        if (looks > 1) throw new Error('trap');
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
    },
  );
}

function refusal(field: string, expected: string, got: string): string {
  return `agent-loopguard: snapshot field "${field}" must be ${expected}, got ${got}.`;
}

describe('restored snapshots, issue 29 item 5', () => {
  it('restores a consistent snapshot, as an object or after JSON, and goes on as the guard that took it', () => {
    const snapshot = saved();
    const original = createGuard(OPTIONS);
    for (const step of steps()) original.check(step);
    const next: GuardStep = { toolCalls: [{ name: 'lookup', args: { id: 99 }, result: 'found 99' }] };
    expect(restore(snapshot).check(next)).toEqual(original.check(next));
  });

  it('refuses a stagnation window shorter than its entries say', () => {
    const snapshot = saved();
    const stagnation = snapshot.detectors.stagnation as { window: unknown[] };
    stagnation.window = stagnation.window.slice(1);
    expect(() => restore(snapshot)).toThrow(new TypeError(refusal('detectors.stagnation.window', 'an array of 3 entries', 'an array')));
  });

  it('refuses more window entries than the run took steps, and window steps out of order or after the last step', () => {
    const tooMany = saved();
    tooMany.detectors.stagnation = { ...tooMany.detectors.stagnation, entries: 7 };
    expect(() => restore(tooMany)).toThrow(new TypeError(refusal('detectors.stagnation.entries', 'an integer from 0 to 6', '7')));
    const future = saved();
    const window = (future.detectors.stagnation as { window: { step: number }[] }).window;
    (window[2] as { step: number }).step = 6;
    expect(() => restore(future)).toThrow(new TypeError(refusal('detectors.stagnation.window[2].step', 'an integer from 0 to 5', '6')));
    const empty = saved();
    const emptied = (empty.detectors.stagnation as { window: { calls: unknown[] }[] }).window;
    (emptied[0] ?? { calls: [] }).calls = [];
    expect(() => restore(empty)).toThrow(new TypeError(refusal('detectors.stagnation.window[0].calls', 'an array of at least 1 call', 'an array')));
    const disordered = saved();
    const entries = (disordered.detectors.stagnation as { window: { step: number }[] }).window;
    (entries[1] as { step: number }).step = (entries[0] as { step: number }).step;
    expect(() => restore(disordered)).toThrow(new TypeError(refusal('detectors.stagnation.window[1].step', 'a step index above the one before', '3')));
  });

  it('refuses an outcome or a repeat dated after the last step', () => {
    const outcome = saved();
    const memory = outcome.memory as { outcomes: [string, number][] };
    memory.outcomes = memory.outcomes.map(([key], index) => [key, index === 0 ? 6 : 5]);
    expect(() => restore(outcome)).toThrow(TypeError);
    expect(() => restore(outcome)).toThrow(/snapshot field "memory\.outcomes\[0\]\[1\]" must be an integer from 0 to 5, got 6\./);
    const repeat = saved();
    repeat.detectors['repeated-tool-call'] = { run: { key: 'k', first: { name: 'lookup', argsPreview: '{}' }, count: 1, identicalResults: true, answer: '', stepIndexes: [6] } };
    expect(() => restore(repeat)).toThrow(new TypeError(refusal('detectors.repeated-tool-call.run.stepIndexes[0]', 'an integer from 0 to 5', '6')));
    const backwards = saved();
    backwards.detectors['repeated-tool-call'] = { run: { key: 'k', first: { name: 'lookup', argsPreview: '{}' }, count: 2, identicalResults: true, answer: '', stepIndexes: [4, 3] } };
    expect(() => restore(backwards)).toThrow(new TypeError(refusal('detectors.repeated-tool-call.run.stepIndexes[1]', 'a step index above the one before', '3')));
    const unlisted = saved();
    unlisted.detectors['repeated-tool-call'] = { run: { key: 'k', first: { name: 'lookup', argsPreview: '{}' }, count: 2, identicalResults: true, answer: '', stepIndexes: [] } };
    expect(() => restore(unlisted)).toThrow(new TypeError(refusal('detectors.repeated-tool-call.run.stepIndexes', 'an array of 1 to 2 step indexes', 'an array')));
  });

  it('refuses counts past what the run did: calls of oscillation, calls a step, custom stops', () => {
    const calls = saved();
    calls.detectors.oscillation = { ...calls.detectors.oscillation, callCount: 7 };
    expect(() => restore(calls)).toThrow(new TypeError(refusal('detectors.oscillation.callCount', 'an integer from 0 to 6', '7')));
    const perStep = saved();
    perStep.toolCalls = 60_001;
    expect(() => restore(perStep)).toThrow(new TypeError(refusal('toolCalls', 'an integer from 0 to 60000 (10000 calls a step)', '60001')));
  });

  it('refuses a total with more digits than the guard keeps: 3,000,000 of them, or a sum left unrounded', () => {
    const long = JSON.stringify(saved()).replace('"costUsd":0.6', `"costUsd":0.${'3'.repeat(3_000_000)}`);
    expect(long.length).toBeGreaterThan(3_000_000);
    const expected = 'a total as the guard rounds it (at most 15 significant digits)';
    expect(() => restore(JSON.parse(long))).toThrow(new TypeError(refusal('totals.costUsd', expected, '0.3333333333333333')));
    const unrounded = saved();
    unrounded.totals = { ...(unrounded.totals as object), costUsd: 0.1 + 0.2 };
    expect(() => restore(unrounded)).toThrow(new TypeError(refusal('totals.costUsd', expected, '0.30000000000000004')));
  });

  it('refuses a lastVerdict that is not JSON: a bigint, a cycle, a function', () => {
    const bigint = saved();
    bigint.lastVerdict = { stop: false, warnings: [{ code: 'X', detail: 'd', evidence: { big: 12n } }] };
    expect(() => restore(bigint)).toThrow(
      new TypeError(refusal('lastVerdict.warnings[0].evidence.big', 'JSON data (a string, number, boolean, null, array or object)', '12n')),
    );
    const cycle = saved();
    const evidence: Record<string, unknown> = {};
    evidence.self = evidence;
    cycle.lastVerdict = { stop: true, reason: 'custom', code: 'C', detail: 'd', evidence };
    expect(() => restore(cycle)).toThrow(new TypeError(refusal('lastVerdict.evidence.self', 'JSON data without cycles', 'a value of type object')));
    const callable = saved();
    callable.lastVerdict = { stop: false, later: () => 1 };
    expect(() => restore(callable)).toThrow(new TypeError(refusal('lastVerdict.later', 'JSON data (a string, number, boolean, null, array or object)', 'a function')));
  });

  it('never calls a getter, at the top or deep in the history: the field is named instead', () => {
    let calls = 0;
    const getter = {
      enumerable: true,
      get(): never {
        calls++;
        throw new Error('the getter ran');
      },
    };
    const top = saved();
    Object.defineProperty(top, 'steps', getter);
    expect(() => restore(top)).toThrow(new TypeError(refusal('steps', 'a data property', 'a getter or setter')));
    const deep = saved();
    const history = deep.history as { toolCalls: object[] }[];
    Object.defineProperty(history[1]?.toolCalls[0], 'args', getter);
    expect(() => restore(deep)).toThrow(new TypeError(refusal('history[1].toolCalls[0].args', 'a data property', 'a getter or setter')));
    const revoked = saved();
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    revoked.lastVerdict = proxy;
    expect(() => restore(revoked)).toThrow(new TypeError(refusal('lastVerdict', 'JSON data', 'a value whose reading threw')));
    expect(calls).toBe(0);
  });

  it('refuses a Date or a non-finite number where JSON would hold neither', () => {
    const date = saved();
    date.lastVerdict = { stop: false, at: new Date(0) };
    expect(() => restore(date)).toThrow(new TypeError(refusal('lastVerdict.at', 'a plain object or array (a snapshot is JSON)', 'a value of type object')));
    const infinite = saved();
    infinite.startedAt = Number.NaN;
    expect(() => restore(infinite)).toThrow(new TypeError(refusal('startedAt', 'a finite number (a snapshot is JSON)', 'NaN')));
  });

  it('refuses whatever else JSON cannot hold, naming where: holes, symbols, proxies whose traps throw, deep nesting', () => {
    const cases: [unknown, RegExp][] = [
      [new Array<unknown>(2), /"lastVerdict\.list\[0\]" must be JSON data .*, got undefined\./],
      [[1, undefined], /"lastVerdict\.list\[1\]" must be JSON data \(a string, number, boolean, null, array or object\), got undefined\./],
      [[Symbol('s')], /"lastVerdict\.list\[0\]" must be JSON data .*, got a value of type symbol\./],
      [Object.defineProperty([0], '0', { get: () => 1, enumerable: true }), /"lastVerdict\.list\[0\]" must be a data property, got a getter or setter\./],
      // Listing the keys asks for each descriptor once; asking again, as the copy does, throws.
      [throwsOnSecondLook(), /"lastVerdict\.list\.a" must be a readable data property, got a property whose reading threw\./],
      [new Proxy({}, { ownKeys: () => { throw new Error('trap'); } }), /"lastVerdict\.list" must be an object whose keys can be listed, got a value of type object\./],
    ];
    for (const [list, message] of cases) {
      const snapshot = saved();
      snapshot.lastVerdict = { stop: false, list };
      expect(() => restore(snapshot)).toThrow(message);
    }
    let deep: unknown = [];
    for (let level = 0; level < 100; level++) deep = [deep];
    const nested = saved();
    nested.lastVerdict = { stop: false, deep };
    expect(() => restore(nested)).toThrow(/must be JSON data at most 100 levels deep, got an array\./);
  });
});
