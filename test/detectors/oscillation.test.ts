import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions, type GuardStep } from '../../src/index.js';
import { ALL_OFF, call, calls, factsOf, text, tool } from '../support/step-builder.js';
import { oscillation } from '../../src/detectors/oscillation.js';

function guardWith(options: GuardOptions['oscillation'] = {}) {
  return createGuard({ ...ALL_OFF, oscillation: options });
}

/** Feeds the steps and returns the index of the first stop, or -1. */
function firstStop(options: GuardOptions['oscillation'], steps: GuardStep[]): number {
  const guard = guardWith(options);
  return steps.findIndex((step) => guard.check(step).stop);
}

const sequence = (names: string) => names.split('').map((name) => tool(name));

describe('oscillation', () => {
  it('stops when a two-call cycle has repeated three times, with full evidence', () => {
    const guard = guardWith();
    const verdicts = sequence('ababab').map((step) => guard.check(step));
    expect(verdicts.slice(0, 5).map((verdict) => verdict.stop)).toEqual([false, false, false, false, false]);
    expect(verdicts[5]).toEqual({
      stop: true,
      reason: 'oscillation',
      code: 'OSCILLATION',
      detail: 'The last 6 tool calls cycle through the same 2 calls 3 times: a({"id":1}) → b({"id":1}).',
      evidence: { period: 2, repeats: 3, threshold: 3, cycle: ['a({"id":1})', 'b({"id":1})'] },
    });
  });

  it('finds three-call cycles up to maxPeriod 3 by default', () => {
    expect(firstStop({}, sequence('abcabcabc'))).toBe(8);
    expect(firstStop({}, sequence('abcabcab'))).toBe(-1);
  });

  it('a cycle longer than maxPeriod is not reported; raising maxPeriod finds it', () => {
    expect(firstStop({}, sequence('abcdabcdabcd'))).toBe(-1);
    expect(firstStop({ maxPeriod: 4 }, sequence('abcdabcdabcd'))).toBe(11);
  });

  it('honours repeats: N-1 cycles continue, N stop', () => {
    expect(firstStop({ repeats: 2 }, sequence('abab'))).toBe(3);
    expect(firstStop({ repeats: 4 }, sequence('abababa'))).toBe(-1);
    expect(firstStop({ repeats: 4 }, sequence('abababab'))).toBe(7);
  });

  it('a one-call cycle is not an oscillation', () => {
    expect(firstStop({}, sequence('aaaaaaaaaaaa'))).toBe(-1);
  });

  it('a cycle with a repeated member still counts (a a b)', () => {
    const guard = guardWith();
    const steps = sequence('aabaabaab');
    const verdicts = steps.map((step) => guard.check(step));
    expect(verdicts.findIndex((verdict) => verdict.stop)).toBe(8);
    expect(verdicts[8]).toMatchObject({ evidence: { period: 3, repeats: 3 } });
  });

  it('reports the shortest period when several fit', () => {
    const guard = guardWith({ maxPeriod: 4, repeats: 2 });
    const verdicts = sequence('abab').map((step) => guard.check(step));
    expect(verdicts[3]).toMatchObject({ evidence: { period: 2, repeats: 2, threshold: 2 } });
  });

  it('counts the full cycles at the tail when a run goes on', () => {
    const guard = guardWith();
    let last = guard.check(tool('a'));
    for (const step of sequence('bababab')) last = guard.check(step);
    expect(last).toMatchObject({ stop: true, evidence: { period: 2, repeats: 4 } });
  });

  it('compares calls by name and arguments alone with requireIdenticalResults: false (0.1.0)', () => {
    const guard = guardWith({ requireIdenticalResults: false });
    const verdicts = [1, 2, 3, 4, 5, 6].map((n) => guard.check(tool(n % 2 ? 'a' : 'b', 1, { result: n })));
    expect(verdicts[5]?.stop).toBe(true);
  });

  it('by default, counts a cycle only while each call gets the answer it got a cycle before', () => {
    // An edit and a test in turn, the test's output changing: work, not a loop.
    const working = guardWith();
    const outputs = ['parser failed', 'lexer failed', 'linker failed', 'passed', 'passed', 'passed'];
    const worked = outputs.flatMap((output) => [working.check(tool('edit', 1, { result: 'ok' })), working.check(tool('test', 1, { result: output }))]);
    // Once the output stops changing, the pairs are copies: the third copy in a row stops the run.
    expect(worked.findIndex((verdict) => verdict.stop)).toBe(11);
    expect(worked[11]).toMatchObject({ reason: 'oscillation', evidence: { period: 2, repeats: 3 } });
    expect(firstStop({ requireIdenticalResults: false }, outputs.flatMap((output) => [tool('edit', 1, { result: 'ok' }), tool('test', 1, { result: output })]))).toBe(5);
    // Only counters changed: the same answers.
    const stuck = guardWith();
    const verdicts = [1, 2, 3, 4, 5, 6].map((n) => stuck.check(tool(n % 2 ? 'a' : 'b', 1, { result: `took ${String(n)} ms` })));
    expect(verdicts.map((verdict) => verdict.stop)).toEqual([false, false, false, false, false, true]);
  });

  it('different arguments break the cycle', () => {
    expect(firstStop({}, [tool('a'), tool('b'), tool('a'), tool('b', 2), tool('a'), tool('b')])).toBe(-1);
  });

  it('reads parallel calls one by one across steps', () => {
    const guard = guardWith();
    expect(guard.check(calls(call('a'), call('b'))).stop).toBe(false);
    expect(guard.check(calls(call('a'), call('b'))).stop).toBe(false);
    expect(guard.check(calls(call('a'), call('b')))).toMatchObject({ stop: true, evidence: { period: 2 } });
  });

  it('a cycle completed mid-step counts even if a later call in the step breaks it', () => {
    const guard = guardWith();
    expect(guard.check(calls(call('a'), call('b'), call('a'), call('b'), call('a'), call('b'), call('c')))).toMatchObject({
      stop: true,
      evidence: { period: 2, repeats: 3 },
    });
  });

  it('steps without tool calls neither extend nor break the cycle', () => {
    const steps = [tool('a'), tool('b'), text('x'), tool('a'), {}, tool('b'), tool('a'), tool('b')];
    expect(firstStop({}, steps)).toBe(7);
  });

  it('reports state and forgets everything on reset', () => {
    const guard = guardWith();
    for (const step of sequence('abab')) guard.check(step);
    expect(guard.summary().detectors.oscillation).toEqual({ maxPeriod: 3, repeats: 3, longestMatch: 2 });
    guard.reset();
    expect(guard.summary().detectors.oscillation).toEqual({ maxPeriod: 3, repeats: 3, longestMatch: 0 });
    const verdicts = sequence('ab').map((step) => guard.check(step));
    expect(verdicts.some((verdict) => verdict.stop)).toBe(false);
  });
});

describe('oscillation through the detector contract', () => {
  const options = { maxPeriod: 3, repeats: 3, warnBefore: false, requireIdenticalResults: false } as const;

  it('gives just a new state without a cycle, leaving the one it was given as it was', () => {
    const start = oscillation.start(options);
    expect(start).toEqual({ callCount: 0, recent: [], matched: [0, 0, 0, 0] });
    const judgement = oscillation.check(start, factsOf({ toolCalls: [{ name: 'a' }, { name: 'b' }] }), options);
    expect(judgement).toStrictEqual({
      state: {
        callCount: 2,
        recent: [
          { name: 'a', signature: expect.any(String) as unknown, argsPreview: 'undefined', answer: '' },
          { name: 'b', signature: expect.any(String) as unknown, argsPreview: 'undefined', answer: '' },
        ],
        matched: [0, 0, 0, 0],
      },
    });
    expect(start).toEqual({ callCount: 0, recent: [], matched: [0, 0, 0, 0] });
  });

  it('keeps the last maxPeriod calls, and restores a state only of that shape', () => {
    let state = oscillation.start(options);
    for (const name of ['a', 'b', 'a', 'b']) state = oscillation.check(state, factsOf({ toolCalls: [{ name }] }), options).state;
    expect(state.recent.map((recent) => recent.name)).toEqual(['b', 'a', 'b']);
    expect(state).toMatchObject({ callCount: 4, matched: [0, 0, 2, 0] });
    const saved = JSON.parse(JSON.stringify(state)) as unknown;
    expect(oscillation.restore(saved, options, 'here')).toEqual(state);
    expect(() => oscillation.restore({ ...state, recent: state.recent.slice(1) }, options, 'here')).toThrow(
      'snapshot field "here.recent" must be an array of 3 calls, got an array.',
    );
    expect(() => oscillation.restore({ ...state, matched: [0, 0, 5, 0] }, options, 'here')).toThrow('snapshot field "here.matched[2]" must be an integer from 0 to 4, got 5.');
    expect(() => oscillation.restore({ ...state, recent: [...state.recent.slice(1), { name: 'b', signature: 'x', answer: '' }] }, options, 'here')).toThrow(
      'snapshot field "here.recent[2].argsPreview" must be a string, got undefined.',
    );
    expect(oscillation.summary(state, options, { steps: 4, distinctOutcomes: 0, distinctAnswers: 0 })).toEqual({ maxPeriod: 3, repeats: 3, longestMatch: 2 });
  });

  it('judges calls before they run, and is off with false', () => {
    expect(oscillation.judgesCalls(options)).toBe(true);
    expect(oscillation.resolve(false)).toBe(false);
    expect(oscillation.resolve(undefined)).toEqual({ maxPeriod: 3, repeats: 3, warnBefore: 1, requireIdenticalResults: true });
    expect(oscillation.resolve({ requireIdenticalResults: false })).toEqual({ maxPeriod: 3, repeats: 3, warnBefore: 1, requireIdenticalResults: false });
  });
});

describe('oscillation warnings', () => {
  it('warns one cycle before the stop by default, with a message for the model', () => {
    const guard = guardWith();
    const verdicts = [tool('a'), tool('b'), tool('a'), tool('b')].map((step) => guard.check(step));
    expect(verdicts.slice(0, 3)).toEqual([{ stop: false }, { stop: false }, { stop: false }]);
    expect(verdicts[3]).toEqual({
      stop: false,
      warnings: [
        {
          code: 'LOOP_WARNING',
          reason: 'oscillation',
          detail: 'The last 4 tool calls cycle through the same 2 calls 2 times in a row: a({"id":1}) → b({"id":1}); 3 cycles stop the run.',
          message:
            'You have gone through the same 2 calls (to a, b) 2 times in a row. Going round again will not get you anywhere new: try a different approach, or answer with what you have.',
          evidence: { period: 2, repeats: 2, threshold: 3, cycle: ['a({"id":1})', 'b({"id":1})'] },
        },
      ],
    });
  });

  it('never warns on a single pass, and not at all with false', () => {
    const twice = guardWith({ repeats: 2 });
    expect([tool('a'), tool('b'), tool('a')].map((step) => twice.check(step))).toEqual([{ stop: false }, { stop: false }, { stop: false }]);
    const silent = guardWith({ warnBefore: false });
    expect([tool('a'), tool('b'), tool('a'), tool('b')].map((step) => silent.check(step).warnings)).toEqual([undefined, undefined, undefined, undefined]);
    const early = guardWith({ repeats: 4, warnBefore: 2 });
    const warned = [tool('a'), tool('b'), tool('a'), tool('b'), tool('a'), tool('b')].map((step) => early.check(step).warnings?.find((warning) => warning.code === 'LOOP_WARNING')?.evidence);
    expect(warned.slice(3)).toEqual([
      { period: 2, repeats: 2, threshold: 4, cycle: ['a({"id":1})', 'b({"id":1})'] },
      { period: 2, repeats: 2, threshold: 4, cycle: ['b({"id":1})', 'a({"id":1})'] },
      { period: 2, repeats: 3, threshold: 4, cycle: ['a({"id":1})', 'b({"id":1})'] },
    ]);
  });
});
