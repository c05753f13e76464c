/**
 * A caller's mistakes are loud: each throws a `TypeError` that says what to pass, and nothing is recorded. (A model's
 * or a tool's odd data never throws: see create-guard.test.ts, "odd input", and the fuzz suite.)
 */
import { describe, expect, it } from 'vitest';
import { createGuard, explain, runAgentLoop, withGuard, type RunAgentLoopOptions, type GuardStep, type GuardToolCall, type RestoreOptions, type Verdict } from '../../src/index.js';

const FIX = 'pass { snapshot: guard.snapshot() } (JSON.parse it first if it was stored as text)';

function savedGuard(): { snapshot: ReturnType<ReturnType<typeof createGuard>['snapshot']> } {
  const guard = createGuard({ now: () => 0 });
  guard.check({ text: 'a' });
  return { snapshot: guard.snapshot() };
}

describe("createGuard's second argument", () => {
  it('takes { snapshot } and an absent snapshot alike', () => {
    const { snapshot } = savedGuard();
    expect(createGuard({ now: () => 0 }, { snapshot }).summary().steps).toBe(1);
    expect(createGuard({ now: () => 0 }, { snapshot: undefined }).summary().steps).toBe(0);
    expect(createGuard({ now: () => 0 }, undefined).summary().steps).toBe(0);
  });

  it.each<[string, () => unknown, string]>([
    ['something that is not an object', () => 'x', `createGuard's second argument is { snapshot }: ${FIX}, got "x".`],
    ['the snapshot itself', () => savedGuard().snapshot, `createGuard's second argument is { snapshot }, not the snapshot itself: ${FIX}, got a value of type object.`],
    ['a misspelt key', () => ({ snapshots: savedGuard().snapshot }), `createGuard's second argument has an unknown key "snapshots": ${FIX}.`],
  ])('refuses %s instead of starting a new run in silence', (_label, restore, message) => {
    expect(() => createGuard({}, restore() as RestoreOptions)).toThrow(new TypeError(`agent-loopguard: ${message}`));
  });

  it('refuses a snapshot given as JSON text, describing it by its length rather than quoting it', () => {
    const text = JSON.stringify(savedGuard().snapshot);
    expect(() => createGuard({}, { snapshot: text })).toThrow(
      new TypeError(
        `agent-loopguard: the snapshot is the object guard.snapshot() returned, not JSON text: pass { snapshot: JSON.parse(text) }, got a string of ${String(text.length)} characters.`,
      ),
    );
  });
});

describe('the guard methods take objects', () => {
  it.each<[string, (guard: ReturnType<typeof createGuard>) => unknown, string]>([
    ['peek', (guard) => guard.peek(5 as unknown as GuardStep), 'peek takes a step, an object such as { toolCalls, text, finishReason, usage }, got 5.'],
    ['judgeCall', (guard) => guard.judgeCall(null as unknown as GuardToolCall), 'judgeCall takes a tool call, an object such as { name, args }, got null.'],
    ['screen().judge', (guard) => guard.screen().judge('search' as unknown as GuardToolCall), 'screen().judge takes a tool call, an object such as { name, args }, got "search".'],
  ])('%s throws naming what it takes, and records nothing', (_label, act, message) => {
    const guard = createGuard({ now: () => 0 });
    guard.check({ text: 'a' });
    const before = JSON.stringify(guard.snapshot());
    expect(() => act(guard)).toThrow(new TypeError(`agent-loopguard: ${message}`));
    expect(JSON.stringify(guard.snapshot())).toBe(before);
  });

  it('reads a step whose keys cannot be listed as an empty step, without a warning', () => {
    const unlistable = new Proxy({}, { ownKeys: () => { throw new Error('no keys'); } });
    const guard = createGuard({ now: () => 0 });
    expect(guard.check(unlistable as GuardStep)).toEqual({ stop: false });
    expect(guard.summary().steps).toBe(1);
  });
});

describe('the helpers take what they say', () => {
  it.each<[string, unknown, string]>([
    ['undefined', undefined, 'got undefined.'],
    ['an object that is no verdict', {}, 'got a value of type object.'],
  ])('explain refuses %s', (_label, value, got) => {
    expect(() => explain(value as Verdict)).toThrow(new TypeError(`agent-loopguard: explain takes a verdict from check, peek or judgeCall, ${got}`));
  });

  it.each<[string, unknown, string]>([
    ['a number', 42, 'got 42.'],
    ['an object whose iterator cannot be read', new Proxy({}, { get: () => { throw new Error('boom'); } }), 'got a value of type object.'],
  ])('withGuard refuses %s', (_label, source, got) => {
    expect(() => withGuard(source as Iterable<GuardStep>)).toThrow(
      new TypeError(`agent-loopguard: withGuard takes an iterable or async iterable of steps (an array, a generator, a stream), ${got}`),
    );
  });

  it('withGuard refuses a guard that createGuard did not make', () => {
    expect(() => withGuard([], { check: () => ({ stop: false }) } as unknown as ReturnType<typeof createGuard>)).toThrow(
      new TypeError("agent-loopguard: withGuard's guard is one createGuard() made, got a value of type object."),
    );
  });

  it('runAgentLoop refuses options without a step function', async () => {
    await expect(runAgentLoop({} as RunAgentLoopOptions)).rejects.toThrow(
      new TypeError('agent-loopguard: runAgentLoop takes { step, guard?, signal?, onVerdict? }, where step is a function that runs one step, got undefined.'),
    );
    await expect(runAgentLoop(undefined as unknown as RunAgentLoopOptions)).rejects.toThrow(
      new TypeError('agent-loopguard: runAgentLoop takes { step, guard?, signal?, onVerdict? }, where step is a function that runs one step, got undefined.'),
    );
  });

  it('runAgentLoop refuses a guard that createGuard did not make, before running a step', async () => {
    let ran = 0;
    const step = (): { text: string } => {
      ran++;
      return { text: 'x' };
    };
    await expect(runAgentLoop({ step, guard: { check: () => ({ stop: false }) } as unknown as ReturnType<typeof createGuard> })).rejects.toThrow(
      new TypeError("agent-loopguard: runAgentLoop's guard is one createGuard() made, got a value of type object."),
    );
    expect(ran).toBe(0);
  });
});
