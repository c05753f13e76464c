/**
 * The `tools` option: per tool name, what makes two calls the same (`key`, `keyFields`) or that a tool's calls are
 * exempt from the loop detectors. Validation, its place in snapshots, and `check`, `peek`, `judgeCall` and an adapter.
 */
import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../../src/adapters/run-agent-loop.js';
import { createGuard, type GuardOptions, type GuardStep } from '../../src/index.js';
import { ALL_OFF, call, calls } from '../support/step-builder.js';

const search = (query: string, limit: number): GuardStep => calls(call('search', { query, limit }, { result: `hits for ${query}` }));
const poll = (state: string): GuardStep => calls(call('get_job_status', { job: 7 }, { result: { state } }));

function play(options: GuardOptions, steps: readonly GuardStep[]): boolean[] {
  const guard = createGuard(options);
  return steps.map((step) => guard.check(step).stop);
}

describe('tools: validation', () => {
  it.each<[string, unknown, string]>([
    ['not an object', 'search', 'agent-loopguard: option "tools" must be an object whose keys are tool names, got "search".'],
    ['an array', [], 'agent-loopguard: option "tools" must be an object whose keys are tool names, got an array.'],
    ['an entry that is not an object', { search: true }, 'agent-loopguard: option "tools.search" must be an object, got true.'],
    ['an unknown field', { search: { keys: ['q'] } }, 'agent-loopguard: unknown option "tools.search.keys" (known: key, keyFields, exempt).'],
    ['a key that is not a function', { search: { key: 'query' } }, 'agent-loopguard: option "tools.search.key" must be a function of the arguments, got "query".'],
    ['keyFields not an array', { search: { keyFields: 'query' } }, 'agent-loopguard: option "tools.search.keyFields" must be an array of field names, got "query".'],
    ['a field name that is not a string', { search: { keyFields: ['query', 1] } }, 'agent-loopguard: option "tools.search.keyFields[1]" must be a string, got 1.'],
    ['exempt not a boolean', { search: { exempt: 'yes' } }, 'agent-loopguard: option "tools.search.exempt" must be true or false, got "yes".'],
    ['key and keyFields', { search: { key: () => 1, keyFields: ['q'] } }, 'agent-loopguard: option "tools.search" must give one of key, keyFields or exempt: true, not more.'],
    ['keyFields and exempt', { 'read file': { keyFields: ['q'], exempt: true } }, 'agent-loopguard: option "tools["read file"]" must give one of key, keyFields or exempt: true, not more.'],
  ])('refuses %s with a TypeError naming the path', (_label, tools, message) => {
    expect(() => createGuard({ tools } as GuardOptions)).toThrow(new TypeError(message));
  });

  it('caps the tools at 10,000 and the key fields at 1,000', () => {
    const many = Object.fromEntries(Array.from({ length: 10_001 }, (_, index) => [`t${String(index)}`, { exempt: true }]));
    expect(() => createGuard({ tools: many })).toThrow('option "tools" must be an object of at most 10000 tools, got a value of type object.');
    expect(() => createGuard({ tools: { ...many, t0: undefined } as unknown as GuardOptions['tools'] })).toThrow('at most 10000 tools');
    const fields = Array.from({ length: 1_001 }, (_, index) => `f${String(index)}`);
    expect(() => createGuard({ tools: { search: { keyFields: fields } } })).toThrow('option "tools.search.keyFields" must be an array of field names of at most 1000 items');
    expect(() => createGuard({ tools: { search: { keyFields: fields.slice(1) } } })).not.toThrow();
  });

  it('reads only own properties, and names an entry whose getter throws', () => {
    const inherited = Object.create({ search: { exempt: true } }) as Record<string, never>;
    expect(play({ ...ALL_OFF, repeatedToolCall: {}, tools: inherited }, [poll('a'), poll('a'), poll('a')])).toEqual([false, false, true]);
    const hostile = Object.defineProperty({}, 'search', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(() => createGuard({ tools: hostile })).toThrow('agent-loopguard: option "tools.search" could not be read: reading it threw.');
    expect(() => createGuard({ tools: {} })).not.toThrow();
  });
});

describe('tools: keyFields and key', () => {
  it('a search keyed by its query alone is the same call whatever its limit: N - 1 continue, N stop', () => {
    const steps = [search('loops', 10), search('loops', 20), search('loops', 30)];
    // Without the option the calls differ.
    expect(play({ ...ALL_OFF, repeatedToolCall: {} }, steps)).toEqual([false, false, false]);
    expect(play({ ...ALL_OFF, repeatedToolCall: {}, tools: { search: { keyFields: ['query'] } } }, steps)).toEqual([false, false, true]);
    expect(play({ ...ALL_OFF, repeatedToolCall: {}, tools: { search: { key: (args) => (args as { query: string }).query } } }, steps)).toEqual([false, false, true]);
    // A new query is a new call.
    expect(play({ ...ALL_OFF, repeatedToolCall: {}, tools: { search: { keyFields: ['query'] } } }, [...steps.slice(0, 2), search('guards', 30)])).toEqual([false, false, false]);
  });

  it('shows the arguments in evidence, not the key', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 2 }, tools: { search: { keyFields: ['query'] } } });
    guard.check(search('loops', 10));
    expect(guard.check(search('loops', 20))).toMatchObject({ evidence: { tool: 'search', argsPreview: '{"limit":10,"query":"loops"}', count: 2 } });
  });

  it('compares arguments that are not an object whole, and a call whose key throws by its arguments', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 2 }, tools: { search: { keyFields: ['query'] } } });
    guard.check(calls(call('search', 'loops')));
    expect(guard.check(calls(call('search', 'guards'))).stop).toBe(false);
    expect(guard.check(calls(call('search', 'guards'))).stop).toBe(true);
    const throwing = createGuard({
      ...ALL_OFF,
      repeatedToolCall: { threshold: 2 },
      tools: {
        search: {
          key: (args) => {
            if (args === undefined) throw new Error('no arguments');
            return 'one';
          },
        },
      },
    });
    expect(throwing.check(calls(call('search'))).stop).toBe(false);
    // `{}` is keyed ("one"); the call without arguments was compared by its arguments: two calls.
    expect(throwing.check(calls(call('search', {}))).stop).toBe(false);
    expect(throwing.check(calls(call('search', { any: 1 }))).stop).toBe(true);
  });

  it('compares arguments it cannot look into (a revoked proxy) whole: unreadable, they equal nothing', () => {
    const revoked = (): unknown => {
      const { proxy, revoke } = Proxy.revocable({ query: 'loops' }, {});
      revoke();
      return proxy;
    };
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 2 }, tools: { search: { keyFields: ['query'] } } });
    expect([guard.check(calls(call('search', revoked()))), guard.check(calls(call('search', revoked())))].map((verdict) => verdict.stop)).toEqual([false, false]);
  });

  it('is honoured by judgeCall and so by every adapter, runAgentLoop here', async () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: {}, tools: { search: { keyFields: ['query'] } } });
    guard.check(search('loops', 1));
    guard.check(search('loops', 2));
    expect(guard.judgeCall(call('search', { query: 'loops', limit: 3 }))).toMatchObject({ block: true, reason: 'repeated-tool-call' });
    expect(guard.judgeCall(call('search', { query: 'other', limit: 3 }))).toEqual({ block: false });

    const refused: boolean[] = [];
    const result = await runAgentLoop({
      guard: createGuard({ maxSteps: 5, tools: { search: { keyFields: ['query'] } } }),
      step: (index, { judgeCall }) => {
        const asked = call('search', { query: 'loops', limit: index });
        refused.push(judgeCall(asked).block);
        return Promise.resolve({ finishReason: 'tool-calls', toolCalls: [{ ...asked, result: 'the same hits' }] });
      },
    });
    expect(refused).toEqual([false, false, true]);
    expect(result.verdict).toMatchObject({ stop: true, reason: 'repeated-tool-call', evidence: { count: 3 } });
  });
});

describe('tools: exempt', () => {
  const polls = ['running', 'running', 'running', 'running', 'running', 'running'].map(poll);

  it('a status poll exempted is never a repeat, a cycle, a stall or a stagnant window; the other detectors still see the steps', () => {
    expect(play({ maxSteps: false }, polls)).toEqual([false, false, true, true, true, true]);
    expect(play({ maxSteps: false, tools: { get_job_status: { exempt: true } } }, polls)).toEqual([false, false, false, false, false, false]);
    const cycle = [poll('running'), calls(call('sleep', { s: 5 }, { result: 'slept' }))];
    const cycles = [...cycle, ...cycle, ...cycle, ...cycle];
    expect(play({ ...ALL_OFF, oscillation: {} }, cycles).indexOf(true)).toBe(5);
    // With the poll exempted only the sleeps are left: a repeat of its own, not a cycle.
    expect(play({ ...ALL_OFF, oscillation: {}, tools: { get_job_status: { exempt: true } } }, cycles)).not.toContain(true);
    expect(play({ ...ALL_OFF, maxSteps: 4, tools: { get_job_status: { exempt: true } } }, polls)).toEqual([false, false, false, true, true, true]);
    const window = Array.from({ length: 30 }, () => poll('running'));
    expect(play({ ...ALL_OFF, stagnation: { window: 5, maxNew: 1 }, tools: { get_job_status: { exempt: true } } }, window)).not.toContain(true);
  });

  it('neither extends nor breaks a run of other calls, and a step of only exempt calls leaves noProgress where it was', () => {
    const options: GuardOptions = { ...ALL_OFF, repeatedToolCall: { threshold: 2 }, tools: { get_job_status: { exempt: true } } };
    const read = calls(call('read', { path: 'a' }, { result: 'same' }));
    const guard = createGuard(options);
    expect([guard.check(read), guard.check(poll('x')), guard.check(read)].map((verdict) => verdict.stop)).toEqual([false, false, true]);
    expect(guard.check(poll('x'))).toEqual({ stop: false });
    const stalled = createGuard({ ...ALL_OFF, noProgress: { threshold: 2 }, tools: { get_job_status: { exempt: true } } });
    // The read is new, the poll changes nothing, the read again stalls once, the text-only step twice.
    expect([read, poll('x'), read, { text: '' }].map((step) => stalled.check(step).stop)).toEqual([false, false, false, true]);
    expect(stalled.check(calls(call('get_job_status', { job: 7 }), call('read', { path: 'b' }))).stop).toBe(false);
  });

  it('is never refused by judgeCall', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 2 }, tools: { get_job_status: { exempt: true } } });
    guard.check(poll('x'));
    guard.check(poll('x'));
    expect(guard.judgeCall(call('get_job_status', { job: 7 }))).toEqual({ block: false });
  });
});

describe('tools: snapshots', () => {
  const options: GuardOptions = { maxSteps: false, tools: { get_job_status: { exempt: true }, search: { key: (args) => (args as { query?: unknown }).query } } };

  it('are tied to each tool named, by path; a key function by its presence, not by which one', () => {
    const guard = createGuard(options);
    guard.check(search('loops', 1));
    const snapshot = guard.snapshot();
    expect(Object.keys(snapshot.options).filter((path) => path.startsWith('tools'))).toEqual(['tools.get_job_status', 'tools.search']);
    const restored = createGuard({ ...options, tools: { ...options.tools, search: { key: () => 'another function' } } }, { snapshot });
    expect(restored.summary().steps).toBe(1);
    expect(() => createGuard({ ...options, tools: { search: { key: () => 1 } } }, { snapshot })).toThrow(
      'the snapshot was taken under other options: "tools.get_job_status" differs.',
    );
    expect(() => createGuard({ ...options, tools: { get_job_status: { exempt: true }, search: { keyFields: ['query'] } } }, { snapshot })).toThrow(
      '"tools.search" differs.',
    );
    // A guard without the option is tied to nothing about tools.
    expect(Object.keys(createGuard().snapshot().options).some((path) => path.startsWith('tools'))).toBe(false);
  });

  it('a restored guard and peek answer as the uninterrupted guard', () => {
    const steps = [search('loops', 1), poll('x'), search('loops', 2), poll('x'), search('loops', 3)];
    const whole = createGuard(options);
    const verdicts = steps.map((step) => whole.check(step));
    expect(verdicts.map((verdict) => verdict.stop)).toEqual([false, false, false, false, true]);
    for (let split = 1; split < steps.length; split++) {
      const first = createGuard(options);
      for (const step of steps.slice(0, split)) first.check(step);
      const second = createGuard(options, { snapshot: JSON.parse(JSON.stringify(first.snapshot())) as unknown as ReturnType<typeof first.snapshot> });
      const rest = steps.slice(split);
      expect(rest.map((step) => second.peek(step))[0]).toEqual(verdicts[split]);
      expect(rest.map((step) => second.check(step))).toEqual(verdicts.slice(split));
    }
  });
});
