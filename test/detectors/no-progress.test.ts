import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions, type GuardStep } from '../../src/index.js';
import { ALL_OFF, call, calls, text, tool } from '../support/step-builder.js';

function guardWith(options: GuardOptions['noProgress'] = {}) {
  return createGuard({ ...ALL_OFF, noProgress: options });
}

function firstStop(options: GuardOptions['noProgress'], steps: GuardStep[]): number {
  const guard = guardWith(options);
  return steps.findIndex((step) => guard.check(step).stop);
}

describe('noProgress', () => {
  it('stops after three stalled steps with the same text, with full evidence', () => {
    const guard = guardWith();
    expect(guard.check(text('I am not sure.')).stop).toBe(false);
    expect(guard.check(text('I am  NOT sure.')).stop).toBe(false);
    expect(guard.check(text(' i am not\nsure. '))).toEqual({
      stop: true,
      reason: 'no-progress',
      code: 'NO_PROGRESS',
      detail: '3 steps in a row repeated the same text with no new tool result: "i am not sure.".',
      evidence: { steps: 3, threshold: 3, textPreview: 'i am not sure.' },
    });
  });

  it('is not asked to judge a call before it runs: a stall is only known once the step has run', () => {
    // Two stalled steps of a call without a result: a third would stop the run once it ran, but refusing it is
    // the business of the detectors that judge calls from their name and arguments.
    const guard = guardWith({ threshold: 3, warnBefore: false });
    for (let step = 0; step < 3; step++) expect(guard.check(calls(call('wait', { s: 1 }))).stop).toBe(false);
    expect(guard.peek(calls(call('wait', { s: 1 }))).stop).toBe(true);
    expect(guard.judgeCall(call('wait', { s: 1 }))).toEqual({ block: false });
  });

  it('honours the threshold: N-1 continues, N stops', () => {
    expect(firstStop({ threshold: 4 }, [text('x'), text('x'), text('x')])).toBe(-1);
    expect(firstStop({ threshold: 4 }, [text('x'), text('x'), text('x'), text('x')])).toBe(3);
    expect(firstStop({ threshold: 2 }, [text('x'), text('x')])).toBe(1);
  });

  it('different text restarts the count', () => {
    expect(firstStop({}, [text('a'), text('a'), text('b'), text('b'), text('a')])).toBe(-1);
    expect(firstStop({}, [text('a'), text('a'), text('b'), text('b'), text('b')])).toBe(4);
  });

  it('a new tool outcome is progress and restarts the count', () => {
    expect(firstStop({}, [text('a'), text('a'), tool('x'), text('a'), text('a')])).toBe(-1);
  });

  it('the same call returning a new result is progress', () => {
    const steps = [1, 2, 3, 4, 5].map((n) => tool('poll', 1, { result: n }));
    expect(firstStop({}, steps)).toBe(-1);
  });

  it('tool-only steps with no text are judged on outcomes alone', () => {
    const guard = guardWith();
    expect(guard.check(tool('a', 1, { result: 'r' })).stop).toBe(false);
    expect(guard.check(tool('a', 1, { result: 'r' })).stop).toBe(false);
    expect(guard.check(tool('a', 1, { result: 'r' })).stop).toBe(false);
    expect(guard.check(tool('a', 1, { result: 'r' }))).toEqual({
      stop: true,
      reason: 'no-progress',
      code: 'NO_PROGRESS',
      detail: '3 steps in a row brought no new tool result.',
      evidence: { steps: 3, threshold: 3, textPreview: '' },
    });
  });

  it('a step is stalled only when none of its outcomes is new', () => {
    const guard = guardWith();
    guard.check(tool('a'));
    guard.check(tool('a'));
    guard.check(tool('a'));
    expect(guard.check(calls(call('a', { id: 1 }), call('b'))).stop).toBe(false);
  });

  it('outcomes old anywhere in the run count as old, not only the previous step', () => {
    expect(firstStop({}, [tool('a'), tool('b'), tool('c'), tool('a'), tool('b'), tool('c')])).toBe(5);
  });

  it('an error is part of the outcome', () => {
    const steps = [tool('a', 1, { error: 'disk full' }), tool('a', 1, { error: 'timed out' }), tool('a', 1, { error: 'refused' })];
    expect(firstStop({ threshold: 2 }, steps)).toBe(-1);
  });

  it('compares outcomes ignoring what changes on every call: an error that differs only in a counter is no news', () => {
    const retries = [1, 2, 3].map((attempt) => tool('a', 1, { error: `retry ${String(attempt)} of 5 failed after ${String(attempt * 250)} ms` }));
    expect(firstStop({ threshold: 2 }, retries)).toBe(2);
    // A result of numbers alone is compared as it is: the numbers are what it says.
    expect(firstStop({ threshold: 2 }, [tool('a', 1, { result: 1 }), tool('a', 1, { result: 2 }), tool('a', 1, { result: 3 })])).toBe(-1);
  });

  it('text-only steps with empty and missing text count as the same text', () => {
    expect(firstStop({}, [{}, text(''), text('   ')])).toBe(2);
  });

  it('compares long texts exactly (by length and hash) and previews them at 120 characters', () => {
    const long = 'word '.repeat(200);
    const guard = guardWith({ threshold: 2 });
    guard.check(text(long));
    expect(guard.check(text(`${long}x`)).stop).toBe(false);
    const verdict = guard.check(text(`${long}x`));
    expect(verdict.stop && verdict.reason === 'no-progress' && verdict.evidence.textPreview).toBe(
      `${'word '.repeat(23)}word…`,
    );
  });

  it('a perfectly repeating a b a b a with identical results and empty text is caught a step before oscillation', () => {
    const guard = createGuard({ ...ALL_OFF, noProgress: {}, oscillation: {} });
    const verdicts = ['a', 'b', 'a', 'b', 'a', 'b'].map((name) => guard.check(tool(name, 1, { result: 'same' })));
    expect(verdicts.slice(0, 4).every((verdict) => !verdict.stop)).toBe(true);
    expect(verdicts[4]).toMatchObject({ reason: 'no-progress', evidence: { steps: 3 } });
  });

  it('reports state and forgets seen outcomes on reset', () => {
    const guard = guardWith();
    guard.check(tool('a'));
    guard.check(tool('a'));
    expect(guard.summary().detectors['no-progress']).toEqual({ stalledSteps: 1, distinctOutcomes: 1, threshold: 3 });
    guard.reset();
    expect(guard.summary().detectors['no-progress']).toEqual({ stalledSteps: 0, distinctOutcomes: 0, threshold: 3 });
    expect(guard.check(tool('a')).stop).toBe(false);
    expect(guard.summary().detectors['no-progress']).toEqual({ stalledSteps: 0, distinctOutcomes: 1, threshold: 3 });
  });
});

describe('noProgress warnings', () => {
  it('warns one stalled step before the stop by default, with a message for the model', () => {
    const guard = guardWith();
    expect(guard.check(text('Still looking.'))).toEqual({ stop: false });
    expect(guard.check(text('still  looking.'))).toEqual({
      stop: false,
      warnings: [
        {
          code: 'LOOP_WARNING',
          reason: 'no-progress',
          detail: '2 steps in a row brought no new tool result with the same text; 3 stop the run.',
          message:
            'Your last 2 steps brought no new tool result and said the same thing. Doing the same again will not help: try a different approach, or answer with what you have.',
          evidence: { steps: 2, threshold: 3, textPreview: 'still looking.' },
        },
      ],
    });
    expect(guard.check(text('Still looking.'))).toMatchObject({ stop: true, code: 'NO_PROGRESS' });
  });

  it('speaks of a single stalled step, without text, when warnBefore reaches back to it', () => {
    const guard = guardWith({ threshold: 2 });
    guard.check(tool('a'));
    expect(guard.check(tool('a')).warnings?.[0]).toMatchObject({ detail: 'A step brought no new tool result; 2 stop the run.' });
    const early = guardWith({ threshold: 3, warnBefore: 2 });
    early.check(tool('a'));
    expect(early.check(tool('a')).warnings?.[0]).toMatchObject({
      detail: 'A step brought no new tool result; 3 stop the run.',
      message: 'Your last step brought no new tool result. Doing the same again will not help: try a different approach, or answer with what you have.',
      evidence: { steps: 1, threshold: 3, textPreview: '' },
    });
  });

  it('counts the stalled steps it warns about, and keeps quiet with false', () => {
    const guard = guardWith({ threshold: 4, warnBefore: 2 });
    const verdicts = [text('x'), text('x'), text('x')].map((step) => guard.check(step));
    expect(verdicts[0]).toEqual({ stop: false });
    expect(verdicts[2]?.warnings?.[0]).toMatchObject({
      detail: '3 steps in a row brought no new tool result with the same text; 4 stop the run.',
      message: 'Your last 3 steps brought no new tool result and said the same thing. Doing the same again will not help: try a different approach, or answer with what you have.',
    });
    const tools = guardWith({ threshold: 4, warnBefore: 2 });
    expect([tool('a'), tool('a'), tool('a'), tool('a')].map((step) => tools.check(step).warnings?.find((warning) => warning.code === 'LOOP_WARNING')?.evidence)).toEqual([
      undefined,
      undefined,
      { steps: 2, threshold: 4, textPreview: '' },
      { steps: 3, threshold: 4, textPreview: '' },
    ]);
    const silent = guardWith({ warnBefore: false });
    expect([silent.check(text('x')), silent.check(text('x'))]).toEqual([{ stop: false }, { stop: false }]);
  });
});
