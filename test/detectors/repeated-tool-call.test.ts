import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions } from '../../src/index.js';
import { ALL_OFF, call, calls, factsOf, text, tool } from '../support/step-builder.js';
import { repeatedToolCall } from '../../src/detectors/repeated-tool-call.js';

function guardWith(options: GuardOptions['repeatedToolCall'] = {}) {
  return createGuard({ ...ALL_OFF, repeatedToolCall: options });
}

describe('repeatedToolCall', () => {
  it('stops at exactly the threshold (3 by default) with full evidence', () => {
    const guard = guardWith();
    expect(guard.check(tool('search', 'x')).stop).toBe(false);
    expect(guard.check(tool('search', 'x')).stop).toBe(false);
    expect(guard.check(tool('search', 'x'))).toEqual({
      stop: true,
      reason: 'repeated-tool-call',
      code: 'REPEATED_TOOL_CALL',
      detail: 'The model called "search" 3 times in a row with the same arguments: search({"id":"x"}).',
      evidence: {
        tool: 'search',
        argsPreview: '{"id":"x"}',
        count: 3,
        threshold: 3,
        stepIndexes: [0, 1, 2],
        identicalResults: true,
      },
    });
  });

  it('honours a custom threshold: N-1 continues, N stops', () => {
    const guard = guardWith({ threshold: 5 });
    for (let i = 0; i < 4; i++) expect(guard.check(tool('a')).stop).toBe(false);
    expect(guard.check(tool('a'))).toMatchObject({ stop: true, evidence: { count: 5, threshold: 5 } });
  });

  it('compares arguments canonically: key order does not matter', () => {
    const guard = guardWith();
    guard.check(calls(call('s', { a: 1, b: [1, 2] })));
    guard.check(calls(call('s', { b: [1, 2], a: 1 })));
    expect(guard.check(calls(call('s', { b: [1, 2], a: 1, c: undefined }))).stop).toBe(true);
  });

  it('a different argument, or a different tool, starts a new run', () => {
    const guard = guardWith();
    guard.check(tool('a', 1));
    guard.check(tool('a', 1));
    expect(guard.check(tool('a', 2)).stop).toBe(false);
    expect(guard.check(tool('b', 2)).stop).toBe(false);
    expect(guard.check(tool('b', 2)).stop).toBe(false);
    expect(guard.check(tool('b', 2))).toMatchObject({ stop: true, evidence: { tool: 'b', stepIndexes: [3, 4, 5] } });
  });

  it('steps without tool calls neither extend nor break a run', () => {
    const guard = guardWith();
    guard.check(tool('a'));
    guard.check(text('thinking'));
    guard.check(tool('a'));
    expect(guard.check({})).toEqual({ stop: false });
    expect(guard.check(tool('a'))).toMatchObject({ stop: true, evidence: { count: 3, stepIndexes: [0, 2, 4] } });
  });

  it('counts parallel calls in one step one by one, and lists each step once', () => {
    const guard = guardWith();
    expect(guard.check(calls(call('a', 1), call('a', 1))).stop).toBe(false);
    expect(guard.check(calls(call('a', 1)))).toMatchObject({
      stop: true,
      evidence: { count: 3, stepIndexes: [0, 1] },
    });
  });

  it('three identical calls in one step stop at once', () => {
    const guard = guardWith();
    expect(guard.check(calls(call('a'), call('a'), call('a')))).toMatchObject({
      stop: true,
      evidence: { count: 3, stepIndexes: [0] },
    });
  });

  it('a run that reaches the threshold mid-step counts even when a later call in the step ends it', () => {
    const guard = guardWith();
    guard.check(tool('a'));
    expect(guard.check(calls(call('a', { id: 1 }), call('a', { id: 1 }), call('b')))).toMatchObject({
      stop: true,
      evidence: { tool: 'a', count: 3 },
    });
  });

  it('reports the full run when it goes past the threshold within a step', () => {
    const guard = guardWith();
    expect(guard.check(calls(call('a'), call('a'), call('a'), call('a')))).toMatchObject({ evidence: { count: 4 } });
  });

  it('does not report again on a step that adds nothing to the run', () => {
    const guard = guardWith();
    guard.check(tool('a'));
    guard.check(tool('a'));
    expect(guard.check(tool('a')).stop).toBe(true);
    expect(guard.check(text('hmm')).stop).toBe(false);
    expect(guard.check(tool('a'))).toMatchObject({ stop: true, evidence: { count: 4 } });
  });

  describe('identicalResults evidence (requireIdenticalResults: false)', () => {
    it('is false when results differ within the run', () => {
      const guard = guardWith({ requireIdenticalResults: false });
      guard.check(tool('poll', 1, { result: 'pending' }));
      guard.check(tool('poll', 1, { result: 'pending' }));
      expect(guard.check(tool('poll', 1, { result: 'done' }))).toMatchObject({
        stop: true,
        evidence: { identicalResults: false },
      });
    });

    it('is false when one call errs and the others do not', () => {
      const guard = guardWith({ requireIdenticalResults: false });
      guard.check(tool('a', 1, { result: 'x' }));
      guard.check(tool('a', 1, { result: 'x' }));
      expect(guard.check(tool('a', 1, { result: 'x', error: 'boom' }))).toMatchObject({
        evidence: { identicalResults: false },
      });
    });
  });

  describe('requireIdenticalResults', () => {
    it('does not count polling whose status keeps changing', () => {
      const guard = guardWith({ requireIdenticalResults: true });
      for (const status of ['queued', 'running', 'running-50%', 'running-90%', 'done']) {
        expect(guard.check(tool('job_status', 7, { result: { status } })).stop).toBe(false);
      }
    });

    it('stops when the result is identical N times', () => {
      const guard = guardWith({ requireIdenticalResults: true });
      guard.check(tool('job_status', 7, { result: { status: 'running' } }));
      guard.check(tool('job_status', 7, { result: { status: 'running' } }));
      expect(guard.check(tool('job_status', 7, { result: { status: 'running' } }))).toMatchObject({
        stop: true,
        evidence: { count: 3, identicalResults: true },
      });
    });

    it('a changed result starts a new run of its own', () => {
      const guard = guardWith({ requireIdenticalResults: true });
      guard.check(tool('a', 1, { result: 1 }));
      guard.check(tool('a', 1, { result: 1 }));
      expect(guard.check(tool('a', 1, { result: 2 })).stop).toBe(false);
      expect(guard.check(tool('a', 1, { result: 2 })).stop).toBe(false);
      expect(guard.check(tool('a', 1, { result: 2 }))).toMatchObject({ stop: true, evidence: { stepIndexes: [2, 3, 4] } });
    });

    it('calls without a result compare by the call alone', () => {
      const guard = guardWith({ requireIdenticalResults: true });
      guard.check(tool('a'));
      guard.check(tool('a'));
      expect(guard.check(tool('a')).stop).toBe(true);
    });

    it('a result and the same value as an error are different outcomes', () => {
      const guard = guardWith({ requireIdenticalResults: true });
      guard.check(tool('a', 1, { result: 'x' }));
      guard.check(tool('a', 1, { result: 'x' }));
      expect(guard.check(tool('a', 1, { error: 'x' })).stop).toBe(false);
    });
  });

  describe('ignoreErrors', () => {
    it('off by default: failing calls count', () => {
      const guard = guardWith();
      guard.check(tool('a', 1, { error: 'e' }));
      guard.check(tool('a', 1, { error: 'e' }));
      expect(guard.check(tool('a', 1, { error: 'e' })).stop).toBe(true);
    });

    it('removes failing calls from the sequence before counting', () => {
      const guard = guardWith({ ignoreErrors: true });
      guard.check(tool('a'));
      guard.check(tool('a', 1, { error: new Error('timeout') }));
      guard.check(tool('b'));
      guard.check(tool('a', 1, { error: 'e' }));
      expect(guard.check(tool('b')).stop).toBe(false);
      expect(guard.check(tool('b'))).toMatchObject({ stop: true, evidence: { tool: 'b', stepIndexes: [2, 4, 5] } });
    });

    it('treats a null or undefined error as no error', () => {
      const guard = guardWith({ ignoreErrors: true });
      guard.check(tool('a', 1, { error: null }));
      guard.check(tool('a', 1, { error: undefined }));
      expect(guard.check(tool('a', 1, { error: null })).stop).toBe(true);
    });
  });

  it('shortens long argument previews to 120 characters', () => {
    const guard = guardWith({ threshold: 2 });
    const args = { text: 'x'.repeat(500) };
    guard.check(calls(call('write', args)));
    const verdict = guard.check(calls(call('write', args)));
    expect(verdict.stop && verdict.reason === 'repeated-tool-call' && verdict.evidence.argsPreview).toBe(
      `{"text":"${'x'.repeat(110)}…`,
    );
  });

  it('keeps at most 100 step indexes in evidence when a run goes on and on', () => {
    const guard = guardWith();
    let last = guard.check(tool('a'));
    for (let i = 1; i < 150; i++) last = guard.check(tool('a'));
    expect(last).toMatchObject({ stop: true, evidence: { count: 150 } });
    const indexes = last.stop && last.reason === 'repeated-tool-call' ? last.evidence.stepIndexes : [];
    expect(indexes).toHaveLength(100);
    expect(indexes[0]).toBe(50);
    expect(indexes[99]).toBe(149);
  });

  it('keeps the latest 100 step indexes whatever the threshold, so a huge threshold cannot grow verdicts', () => {
    const guard = guardWith({ threshold: 250 });
    let last = guard.check(tool('a'));
    for (let i = 1; i < 250; i++) last = guard.check(tool('a'));
    const indexes = last.stop && last.reason === 'repeated-tool-call' ? last.evidence.stepIndexes : [];
    expect(last).toMatchObject({ stop: true, evidence: { count: 250, threshold: 250 } });
    expect(indexes).toEqual(Array.from({ length: 100 }, (_, index) => 150 + index));
  });

  it('reports its state, and reset forgets the run', () => {
    const guard = guardWith();
    expect(guard.summary().detectors['repeated-tool-call']).toEqual({ tool: null, count: 0, threshold: 3 });
    guard.check(tool('a'));
    guard.check(tool('a'));
    expect(guard.summary().detectors['repeated-tool-call']).toEqual({ tool: 'a', count: 2, threshold: 3 });
    guard.reset();
    expect(guard.check(tool('a')).stop).toBe(false);
    expect(guard.check(tool('a')).stop).toBe(false);
    expect(guard.check(tool('a')).stop).toBe(true);
  });
});

describe('repeatedToolCall through the detector contract', () => {
  const options = { threshold: 3, requireIdenticalResults: false, ignoreErrors: false, warnBefore: false } as const;

  it('gives just a new state for a run below the threshold, leaving the one it was given as it was', () => {
    const start = repeatedToolCall.start(options);
    const judgement = repeatedToolCall.check(start, factsOf({ toolCalls: [{ name: 'a' }, { name: 'a' }] }, 4), options);
    expect(judgement).toStrictEqual({
      state: {
        run: {
          key: expect.any(String) as unknown,
          first: { name: 'a', argsPreview: 'undefined' },
          count: 2,
          identicalResults: true,
          answer: expect.any(String) as unknown,
          stepIndexes: [4],
        },
      },
    });
    expect(start).toEqual({ run: null });
  });

  it('restores a run field by field, naming the one that does not fit', () => {
    const { state } = repeatedToolCall.check(repeatedToolCall.start(options), factsOf({ toolCalls: [{ name: 'a' }] }), options);
    const saved = JSON.parse(JSON.stringify(state)) as { run: Record<string, unknown> };
    expect(repeatedToolCall.restore(saved, options, 'here')).toEqual(state);
    expect(repeatedToolCall.restore({ run: null }, options, 'here')).toEqual({ run: null });
    expect(() => repeatedToolCall.restore({ run: { ...saved.run, stepIndexes: [-1] } }, options, 'here')).toThrow(
      'snapshot field "here.run.stepIndexes[0]" must be an integer from 0',
    );
    expect(() => repeatedToolCall.restore({ run: { ...saved.run, first: { name: 'a' } } }, options, 'here')).toThrow(
      'snapshot field "here.run.first.argsPreview" must be a string, got undefined.',
    );
    expect(() => repeatedToolCall.restore({ run: { ...saved.run, answer: null } }, options, 'here')).toThrow(
      'snapshot field "here.run.answer" must be a string, got null.',
    );
    expect(() => repeatedToolCall.restore({ run: { ...saved.run, key: 1 } }, options, 'here')).toThrow('snapshot field "here.run.key" must be a string, got 1.');
  });

  it('judges calls before they run, whether or not results are compared (a pending call is predicted its last answer)', () => {
    expect(repeatedToolCall.judgesCalls(options)).toBe(true);
    expect(repeatedToolCall.judgesCalls({ ...options, requireIdenticalResults: true })).toBe(true);
  });
});

describe('repeatedToolCall warnings', () => {
  it('warns one repetition before the stop by default, with a message for the model, and not before', () => {
    const guard = guardWith();
    expect(guard.check(tool('search', 'x', { result: 'same' }))).toEqual({ stop: false });
    expect(guard.check(tool('search', 'x', { result: 'same' }))).toEqual({
      stop: false,
      warnings: [
        {
          code: 'LOOP_WARNING',
          reason: 'repeated-tool-call',
          detail: 'The model called "search" 2 times in a row with the same arguments; 3 in a row stop the run.',
          message:
            'You have called search 2 times in a row with the same arguments and got the same result each time. Calling it again will not tell you anything new: use what it returned, change the arguments, or try a different tool.',
          evidence: { tool: 'search', argsPreview: '{"id":"x"}', count: 2, threshold: 3, stepIndexes: [0, 1], identicalResults: true },
        },
      ],
    });
    expect(guard.check(tool('search', 'x', { result: 'same' }))).toMatchObject({ stop: true, code: 'REPEATED_TOOL_CALL' });
  });

  it('warns from warnBefore repetitions before the stop, never on a single call, and not at all with false', () => {
    const early = guardWith({ threshold: 5, warnBefore: 2 });
    const warned = Array.from({ length: 4 }, () => early.check(tool('a')).warnings !== undefined);
    expect(warned).toEqual([false, false, true, true]);
    const single = guardWith({ threshold: 2, warnBefore: 5 });
    expect(single.check(tool('a'))).toEqual({ stop: false });
    const silent = guardWith({ warnBefore: false });
    expect([silent.check(tool('a')), silent.check(tool('a'))]).toEqual([{ stop: false }, { stop: false }]);
  });

  it('warns only on steps with calls, and says so without "same result" when results differ', () => {
    const guard = guardWith({ requireIdenticalResults: false });
    guard.check(tool('a', 1, { result: 1 }));
    const warned = guard.check(tool('a', 1, { result: 2 }));
    expect(warned.warnings?.[0]).toMatchObject({ message: expect.not.stringContaining('same result') as unknown, evidence: { identicalResults: false } });
    expect(guard.check(text('thinking'))).toEqual({ stop: false });
  });
});
