import { describe, expect, it } from 'vitest';
import { createGuard, type GuardStep, type Verdict } from '../../src/index.js';
import { ALL_OFF, call, calls, text, tool } from '../support/step-builder.js';

describe('createGuard', () => {
  describe('defaults', () => {
    it('turn every detector on except budget, which has no limits', () => {
      const guard = createGuard();
      expect(Object.keys(guard.summary().detectors)).toEqual([
        'finish-reason',
        'budget',
        'max-steps',
        'repeated-tool-call',
        'oscillation',
        'no-progress',
        'stagnation',
      ]);
    });

    it('do not stop a healthy run of varied calls ending in stop', () => {
      const guard = createGuard();
      const verdicts: Verdict[] = [];
      for (let i = 0; i < 40; i++) {
        verdicts.push(guard.check({ text: `step ${String(i)}`, finishReason: 'tool-calls', toolCalls: [call('read', { page: i }, { result: i })] }));
      }
      expect(verdicts.every((verdict) => !verdict.stop)).toBe(true);
      expect(guard.check({ text: 'Answer.', finishReason: 'stop' })).toMatchObject({ code: 'FINISH_TERMINAL' });
    });
  });

  describe('priority', () => {
    // One step that every detector stops on: each earlier detector, when on, wins over every later one.
    const order = ['finishReason', 'budget', 'maxSteps', 'repeatedToolCall', 'oscillation', 'noProgress', 'stagnation', 'custom'] as const;
    const reasons = ['finish-reason', 'budget', 'max-steps', 'repeated-tool-call', 'oscillation', 'no-progress', 'stagnation', 'custom'];
    const settings = {
      finishReason: { terminal: ['length'] },
      budget: { maxTotalTokens: 1 },
      maxSteps: 6,
      repeatedToolCall: { threshold: 2 },
      oscillation: { maxPeriod: 2, repeats: 2 },
      noProgress: { threshold: 2 },
      stagnation: { window: 2, maxNew: 0 },
      custom: () => ({ stop: true as const }),
    };
    // a b a b a b ... where the last step holds b b: a repeat, an a-b cycle, a stalled step, two steps with nothing new,
    // and every limit at once.
    const steps: GuardStep[] = [tool('a'), tool('b'), tool('a'), tool('b'), tool('a'), { ...calls(call('b', { id: 1 }), call('b', { id: 1 })), finishReason: 'length', usage: { totalTokens: 5 } }];

    it.each(order.map((name, index) => [name, index] as const))('%s wins over everything after it', (name, index) => {
      const enabled = Object.fromEntries(order.slice(index).map((key) => [key, settings[key]]));
      const guard = createGuard({ ...ALL_OFF, ...enabled });
      const verdicts = steps.map((step) => guard.check(step));
      expect(verdicts.at(-1)).toMatchObject({ stop: true, reason: reasons[index] });
    });

    it('every detector sees every step, even after an earlier one stopped', () => {
      const guard = createGuard({ ...ALL_OFF, finishReason: {}, repeatedToolCall: {} });
      expect(guard.check({ ...tool('a'), finishReason: 'length' })).toMatchObject({ reason: 'finish-reason' });
      expect(guard.check({ ...tool('a'), finishReason: 'length' })).toMatchObject({ reason: 'finish-reason' });
      expect(guard.check(tool('a'))).toMatchObject({ reason: 'repeated-tool-call', evidence: { count: 3 } });
    });
  });

  describe('the guard object', () => {
    /* eslint-disable @typescript-eslint/unbound-method -- the point of the test: the methods work detached */
    it('has its methods as own properties that work detached from it, and history as a getter every guard shares', () => {
      const guard = createGuard({ ...ALL_OFF, repeatedToolCall: {} });
      expect(Object.keys(guard)).toEqual(['check', 'peek', 'judgeCall', 'screen', 'reset', 'summary', 'snapshot']);
      const { check, peek, judgeCall, screen, summary, snapshot, reset } = guard;
      expect([tool('a'), tool('a')].map(check)).toEqual([{ stop: false }, expect.objectContaining({ stop: false, warnings: expect.any(Array) as unknown })]);
      expect(peek(tool('a'))).toMatchObject({ stop: true, reason: 'repeated-tool-call' });
      expect(judgeCall(tool('a').toolCalls?.[0] ?? { name: 'a' })).toMatchObject({ block: true });
      expect(screen().judge(tool('a').toolCalls?.[0] ?? { name: 'a' })).toMatchObject({ block: true });
      expect(summary().steps).toBe(2);
      expect(snapshot().steps).toBe(2);
      expect(guard.history).toHaveLength(2);
      reset();
      expect(guard.history).toEqual([]);
      expect(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(createGuard()), 'history')?.get).toBe(
        Object.getOwnPropertyDescriptor(Object.getPrototypeOf(guard), 'history')?.get,
      );
    });
    /* eslint-enable @typescript-eslint/unbound-method */
  });

  describe('summary', () => {
    it('holds counts, totals, the last verdict and each detector state, as JSON', () => {
      const guard = createGuard({ budget: { maxCostUsd: 10 } });
      guard.check({ usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.25 }, durationMs: 100, toolCalls: [call('a'), call('b')] });
      guard.check({ usage: { totalTokens: 100 }, text: 'done', finishReason: 'stop' });
      const summary = guard.summary();
      expect(summary).toMatchObject({
        steps: 2,
        toolCalls: 2,
        stops: 1,
        lastVerdict: { stop: true, code: 'FINISH_TERMINAL' },
        totals: { inputTokens: 10, outputTokens: 5, totalTokens: 115, costUsd: 0.25, durationMs: 100 },
      });
      expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
    });

    it('holds nothing time-dependent', () => {
      let clock = 0;
      const guard = createGuard({ now: () => clock, budget: { maxDurationMs: 1e9 } });
      guard.check({ durationMs: 5 });
      const before = JSON.stringify(guard.summary());
      clock = 123_456;
      expect(JSON.stringify(guard.summary())).toBe(before);
    });

    it('starts from zero and returns to zero after reset', () => {
      const guard = createGuard();
      const fresh = guard.summary();
      expect(fresh).toMatchObject({ steps: 0, toolCalls: 0, stops: 0, lastVerdict: null });
      guard.check({ ...tool('a'), usage: { totalTokens: 3 } });
      guard.check({ text: 'x', finishReason: 'stop' });
      guard.reset();
      expect(guard.summary()).toEqual(fresh);
    });

    it('is a copy: changing it changes nothing in the guard', () => {
      const guard = createGuard();
      guard.check({ usage: { totalTokens: 3 } });
      (guard.summary().totals as { totalTokens: number }).totalTokens = 99;
      expect(guard.summary().totals.totalTokens).toBe(3);
    });
  });

  describe('odd input', () => {
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const throwing = Object.defineProperty({}, 'toolCalls', {
      get() {
        throw new Error('getter');
      },
      enumerable: true,
    });
    const trapping = new Proxy({}, { get: () => { throw new Error('trap'); } });
    const revokedArray = Proxy.revocable([], {});
    revokedArray.revoke();
    // What a model or a tool may put in a step: read as far as it can be, never thrown.
    const oddSteps: [string, unknown][] = [
      ['a throwing getter', throwing],
      ['a proxy whose traps throw', trapping],
      ['revoked toolCalls', { toolCalls: revokedArray.proxy }],
      ['usage that throws', { usage: trapping }],
      ['a non-string finish reason', { finishReason: { toString: () => 'stop' } }],
      ['NaN and negative numbers', { usage: { inputTokens: Number.NaN, outputTokens: -3 }, durationMs: -1 }],
    ];

    it.each(oddSteps)('ignores %s without throwing', (_label, step) => {
      const guard = createGuard({ budget: { maxTotalTokens: 10, maxDurationMs: 10 }, now: () => 0 });
      expect(guard.check(step as GuardStep)).toEqual({ stop: false });
      expect(guard.history).toHaveLength(1);
      expect(JSON.parse(JSON.stringify(guard.summary()))).toEqual(guard.summary());
    });

    // What only a caller can get wrong: a step that is not an object, or calls not in an array.
    it.each<[string, unknown, string]>([
      ['null', null, 'null'],
      ['undefined', undefined, 'undefined'],
      ['a number', 42, '42'],
      ['a string', 'step', '"step"'],
      ['an array', [1, 2], 'an array'],
      ['a revoked proxy', revoked.proxy, 'a value of type object'],
    ])('throws a TypeError naming what to pass for %s, and records nothing', (_label, step, described) => {
      const guard = createGuard({ now: () => 0 });
      const message = `agent-loopguard: check takes a step, an object such as { toolCalls, text, finishReason, usage }, got ${described}.`;
      expect(() => guard.check(step as GuardStep)).toThrow(new TypeError(message));
      expect(() => guard.peek(step as GuardStep)).toThrow(TypeError);
      expect(guard.history).toHaveLength(0);
      expect(guard.summary().steps).toBe(0);
    });

    it.each<[string, unknown, string, string]>([
      ['calls not in an array', { toolCalls: { name: 'a' } }, 'toolCalls', 'put a single call in an array'],
      ['calls that are proxies', { toolCalls: [trapping, revoked.proxy] }, 'toolCalls[].name', 'a call without a string "name" is not read'],
    ])('warns once per run of %s, naming the field', (_label, step, field, fix) => {
      const guard = createGuard(ALL_OFF);
      const verdict = guard.check(step as GuardStep);
      expect(verdict.stop).toBe(false);
      expect(verdict.warnings).toEqual([{ code: 'INPUT_SHAPE', field, detail: expect.stringContaining(fix) as unknown }]);
      expect(verdict.warnings?.[0]?.detail).toMatch(new RegExp(`^The step's "${field.replace(/[[\]]/g, '\\$&')}" was not read: `));
      expect(guard.check(step as GuardStep)).toEqual({ stop: false });
      expect(guard.history).toHaveLength(2);
    });

    it('reads a call array element that throws as a missing call', () => {
      const toolCalls = [call('a')];
      Object.defineProperty(toolCalls, 1, { get: () => { throw new Error('x'); }, enumerable: true });
      const guard = createGuard();
      guard.check({ toolCalls });
      expect(guard.history[0]?.toolCalls).toEqual([{ name: 'a' }]);
    });

    it('a call whose arguments throw when read never equals another', () => {
      const hostile = () => new Proxy({}, { ownKeys: () => { throw new Error('no keys'); } });
      const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 2 } });
      guard.check(calls(call('a', hostile())));
      expect(guard.check(calls(call('a', hostile()))).stop).toBe(false);
    });

    it('checks a sequence of an empty step among real ones without losing state', () => {
      const guard = createGuard();
      guard.check(tool('a'));
      guard.check({});
      guard.check(tool('a'));
      expect(guard.check(tool('a'))).toMatchObject({ reason: 'repeated-tool-call' });
    });
  });

  it('verdicts are plain JSON', () => {
    const guard = createGuard({ budget: { maxTotalTokens: { limit: 10, warnAt: 0.1 } } });
    for (const step of [tool('a'), tool('a'), { ...tool('a'), usage: { totalTokens: 5 } }, text('x', 'other')]) {
      const verdict = guard.check(step);
      expect(JSON.parse(JSON.stringify(verdict))).toEqual(verdict);
    }
  });

  it('guards are independent of each other', () => {
    const first = createGuard();
    const second = createGuard();
    first.check(tool('a'));
    first.check(tool('a'));
    expect(second.check(tool('a')).stop).toBe(false);
    expect(first.check(tool('a')).stop).toBe(true);
  });
});

describe('a switched-off detector is absent, not merely quiet', () => {
  it.each([
    ['maxSteps', 'max-steps'],
    ['repeatedToolCall', 'repeated-tool-call'],
    ['oscillation', 'oscillation'],
    ['noProgress', 'no-progress'],
    ['finishReason', 'finish-reason'],
    ['budget', 'budget'],
  ] as const)('%s: false leaves %s out of the summary', (option, kind) => {
    const guard = createGuard({ [option]: false });
    expect(Object.keys(guard.summary().detectors)).not.toContain(kind);
    expect(Object.keys(createGuard().summary().detectors)).toContain(kind);
  });

  it('finishReason: false does not stop a text-only step with an unfamiliar reason', () => {
    const guard = createGuard({ ...ALL_OFF });
    expect(guard.check({ text: 'Here is the answer.', finishReason: 'weird' })).toStrictEqual({ stop: false });
  });

  it('with everything off, the summary lists no detectors', () => {
    expect(createGuard(ALL_OFF).summary().detectors).toStrictEqual({});
  });
});

describe('verdicts carry exactly their documented keys', () => {
  it('a continue verdict without warnings is exactly { stop: false }', () => {
    const verdict = createGuard().check({ text: 'x' });
    expect(verdict).toStrictEqual({ stop: false });
    expect(Object.keys(verdict)).toEqual(['stop']);
  });

  it('a stop verdict without warnings has no warnings key', () => {
    const verdict = createGuard({ maxSteps: 1 }).check({});
    expect(Object.keys(verdict).sort()).toEqual(['code', 'detail', 'evidence', 'reason', 'stop']);
  });
});

describe('judgeCall', () => {
  const search = call('search', { q: 'x' });

  it('refuses the call that would complete a repeat, with a message for the model, and records nothing', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 3 } });
    expect(guard.judgeCall(search)).toEqual({ block: false });
    guard.check(calls(search));
    expect(guard.judgeCall(search)).toEqual({ block: false });
    guard.check(calls(search));
    const refusal = guard.judgeCall({ ...search, result: 'ignored', error: 'ignored' });
    expect(refusal).toEqual({
      block: true,
      reason: 'repeated-tool-call',
      code: 'REPEATED_TOOL_CALL',
      detail: 'The model called "search" 3 times in a row with the same arguments: search({"q":"x"}).',
      message:
        'Not run: this would be call number 3 in a row to search with the same arguments, and the calls before it got the same answer each time. Use what the earlier calls returned, change the arguments, or try a different tool.',
      evidence: { tool: 'search', argsPreview: '{"q":"x"}', count: 3, threshold: 3, stepIndexes: [0, 1, 2], identicalResults: true },
    });
    expect(guard.judgeCall(call('search', { q: 'y' }))).toEqual({ block: false });
    expect(guard.summary()).toMatchObject({ steps: 2, toolCalls: 2, stops: 0 });
  });

  it('refuses the call that would complete a cycle', () => {
    const guard = createGuard({ ...ALL_OFF, oscillation: { repeats: 2 } });
    guard.check(tool('a'));
    guard.check(tool('b'));
    guard.check(tool('a'));
    expect(guard.judgeCall(call('b', { id: 1 }))).toMatchObject({
      block: true,
      reason: 'oscillation',
      code: 'OSCILLATION',
      message: 'Not run: with this call you would have gone through the same 2 calls (to a, b) 2 times in a row. Try a different approach, or answer with what you have.',
      evidence: { period: 2, repeats: 2, threshold: 2 },
    });
    expect(guard.judgeCall(call('c', { id: 1 }))).toEqual({ block: false });
  });

  it('judges a call after the calls of its step that run before it, and only when it carries a loop further', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 3 } });
    guard.check(calls(search));
    expect(guard.judgeCall(search, [search])).toMatchObject({ block: true, evidence: { count: 3 } });
    expect(guard.judgeCall(call('other'), [search, search])).toEqual({ block: false });
    expect(guard.judgeCall(search, [search, search])).toMatchObject({ block: true, evidence: { count: 4 } });
    expect(guard.judgeCall(search, 'not a list' as unknown as [])).toEqual({ block: false });
  });

  it('leaves to the run the detectors that need results, text or usage', () => {
    const guard = createGuard({ maxSteps: 1, repeatedToolCall: false, oscillation: false, noProgress: { threshold: 2 } });
    guard.check({ toolCalls: [search] });
    expect(guard.judgeCall(search)).toEqual({ block: false });
  });

  it('predicts, comparing answers, that a call gets the answer it got last: refused once the calls before it agree', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 3 } });
    guard.check(calls(call('search', { q: 'x' }, { result: 'apples, pears' })));
    guard.check(calls(call('search', { q: 'x' }, { result: 'plums, figs (1 ms)' })));
    // Two calls, two answers: the second brought something new, so a third would be the second of its run.
    expect(guard.judgeCall(search)).toEqual({ block: false });
    // Only a counter changed: the same answer, so the call after it would be the third of the run.
    expect(guard.check(calls(call('search', { q: 'x' }, { result: 'plums, figs (3 ms)' }))).stop).toBe(false);
    expect(guard.judgeCall(search)).toMatchObject({ block: true, evidence: { count: 3, stepIndexes: [1, 2, 3], identicalResults: true } });
    // With answers ignored, the 0.1.0 rule: the third identical call is refused whatever came back.
    const old = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 3, requireIdenticalResults: false } });
    old.check(calls(call('search', { q: 'x' }, { result: 'apples, pears' })));
    old.check(calls(call('search', { q: 'x' }, { result: 'plums, figs' })));
    expect(old.judgeCall(search)).toMatchObject({ block: true, evidence: { count: 3, identicalResults: false } });
  });
});

describe('refused calls', () => {
  const search = call('search', { q: 'x' });
  const refused = { ...search, blocked: true };

  it('are not part of the call sequence, and a second refusal the guard would make too stops the run', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 3, warnBefore: false } });
    guard.check(calls(search));
    guard.check(calls(search));
    // Refused: the model was told; nothing stops yet.
    expect(guard.check(calls(refused))).toEqual({ stop: false });
    expect(guard.summary()).toMatchObject({ toolCalls: 2, detectors: { 'repeated-tool-call': { count: 2 } } });
    expect(guard.history.at(-1)?.toolCalls).toEqual([{ name: 'search', args: { q: 'x' }, blocked: true }]);
    // Asked for again and refused again: the model persisted.
    const peeked = guard.peek(calls(refused));
    expect(guard.check(calls(refused))).toEqual({
      stop: true,
      reason: 'repeated-tool-call',
      code: 'REPEATED_TOOL_CALL',
      detail: 'The model called "search" 3 times in a row with the same arguments: search({"q":"x"}).',
      evidence: { tool: 'search', argsPreview: '{"q":"x"}', count: 3, threshold: 3, stepIndexes: [0, 1, 3], identicalResults: true },
    });
    expect(peeked).toEqual(guard.summary().lastVerdict);
  });

  it('do not count when the guard would not refuse them, or after the model changed course', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 3, warnBefore: false } });
    guard.check(calls({ ...call('delete'), blocked: true }));
    guard.check(calls(search));
    guard.check(calls(search));
    expect(guard.check(calls(refused))).toEqual({ stop: false });
    expect(guard.check(calls(call('read', { path: 'notes' })))).toEqual({ stop: false });
    // The repeat is broken: refusing the same call again now is not what the guard would do.
    expect(guard.check(calls(refused))).toEqual({ stop: false });
  });

  it('are not counted by a peek: the first refusal a check sees is still the first', () => {
    const guard = createGuard({ ...ALL_OFF, repeatedToolCall: { threshold: 3, warnBefore: false } });
    guard.check(calls(search));
    guard.check(calls(search));
    expect(guard.peek(calls(refused))).toEqual({ stop: false });
    expect(guard.peek(calls(refused))).toEqual({ stop: false });
    expect(guard.check(calls(refused))).toEqual({ stop: false });
    expect(guard.peek(calls(refused))).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL' });
    expect(guard.check(calls(refused))).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL' });
  });

  it('survive a snapshot', () => {
    const options = { ...ALL_OFF, repeatedToolCall: { threshold: 3, warnBefore: false } } as const;
    const guard = createGuard(options);
    guard.check(calls(search));
    guard.check(calls(search));
    guard.check(calls(refused));
    const restored = createGuard(options, { snapshot: JSON.parse(JSON.stringify(guard.snapshot())) as unknown });
    expect(restored.check(calls(refused))).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL' });
  });
});
