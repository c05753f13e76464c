import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions, type GuardStep } from '../../src/index.js';
import { ALL_OFF, call, factsOf } from '../support/step-builder.js';
import { finishReasonDetector } from '../../src/detectors/finish-reason.js';
import { MAX_NORMALIZED_TEXT, preview } from '../../src/guard/normalize-text.js';

function verdictFor(step: GuardStep, options: GuardOptions['finishReason'] = {}) {
  return createGuard({ ...ALL_OFF, finishReason: options }).check(step);
}

describe('finishReason', () => {
  it.each(['stop', 'length', 'content-filter', 'error'])('stops on the terminal reason %s', (reason) => {
    expect(verdictFor({ text: 'done', finishReason: reason })).toMatchObject({
      stop: true,
      reason: 'finish-reason',
      code: 'FINISH_TERMINAL',
    });
  });

  it('gives full evidence for a normal stop', () => {
    expect(verdictFor({ text: 'All done.', finishReason: 'stop' })).toEqual({
      stop: true,
      reason: 'finish-reason',
      code: 'FINISH_TERMINAL',
      detail: 'The model finished its answer (finish reason "stop").',
      evidence: { finishReason: 'stop', normalized: 'stop', mapped: 'stop', policy: 'stop-if-text-only', hasText: true, toolCallCount: 0 },
    });
  });

  it('stops on a terminal reason even when tool calls are present', () => {
    expect(verdictFor({ finishReason: 'length', toolCalls: [call('a'), call('b')] })).toEqual({
      stop: true,
      reason: 'finish-reason',
      code: 'FINISH_TERMINAL',
      detail: 'The step ended with the terminal finish reason "length".',
      evidence: { finishReason: 'length', normalized: 'length', mapped: 'length', policy: 'stop-if-text-only', hasText: false, toolCallCount: 2 },
    });
  });

  it('normalises reasons: trimmed, lower-cased, _ becomes -', () => {
    expect(verdictFor({ finishReason: '  Content_Filter ' })).toMatchObject({
      code: 'FINISH_TERMINAL',
      evidence: { finishReason: '  Content_Filter ', normalized: 'content-filter' },
    });
    expect(verdictFor({ text: 'calling', finishReason: 'TOOL_CALLS' })).toEqual({ stop: false });
  });

  it('normalises each step’s own reason when one guard sees reasons change, recur and go missing', () => {
    const guard = createGuard({ ...ALL_OFF, finishReason: {} });
    const reasons = ['TOOL_CALLS', 'TOOL_CALLS', ' Length', undefined, 'tool_calls', 'STOP', ' Length', '  '];
    expect(reasons.map((finishReason) => guard.check({ finishReason, toolCalls: [call('a')] }))).toMatchObject([
      { stop: false },
      { stop: false },
      { stop: true, evidence: { finishReason: ' Length', normalized: 'length', mapped: 'length' } },
      { stop: false },
      { stop: false },
      { stop: false },
      { stop: true, evidence: { finishReason: ' Length', normalized: 'length' } },
      { stop: false },
    ]);
    expect(guard.summary().detectors['finish-reason']).toEqual({ lastFinishReason: 'length', otherPolicy: 'stop-if-text-only' });
  });

  it('continues on tool-calls, and says nothing about a missing, empty or non-string reason', () => {
    expect(verdictFor({ text: 'hi', finishReason: 'tool-calls' })).toEqual({ stop: false });
    expect(verdictFor({ text: 'hi' })).toEqual({ stop: false });
    expect(verdictFor({ text: 'hi', finishReason: '   ' })).toEqual({ stop: false });
    expect(verdictFor({ text: 'hi', finishReason: 42 as never })).toEqual({ stop: false });
  });

  describe("otherPolicy 'stop-if-text-only' (default)", () => {
    it('stops a text-only step with an unfamiliar reason', () => {
      expect(verdictFor({ text: 'Final answer.', finishReason: 'other' })).toEqual({
        stop: true,
        reason: 'finish-reason',
        code: 'FINISH_OTHER_TEXT_ONLY',
        detail:
          'A text-only step ended with the unfamiliar finish reason "other"; a loop that only treats "stop" as done would ask again.',
        evidence: { finishReason: 'other', normalized: 'other', mapped: 'other', policy: 'stop-if-text-only', hasText: true, toolCallCount: 0 },
      });
      expect(verdictFor({ text: 'x', finishReason: 'made_up_reason' })).toMatchObject({ code: 'FINISH_OTHER_TEXT_ONLY' });
      expect(verdictFor({ text: 'x', finishReason: 'unknown' })).toMatchObject({ code: 'FINISH_OTHER_TEXT_ONLY' });
    });

    it('continues when the step has tool calls or only blank text', () => {
      expect(verdictFor({ text: 'x', finishReason: 'other', toolCalls: [call('a')] })).toEqual({ stop: false });
      expect(verdictFor({ text: ' \n\t', finishReason: 'other' })).toEqual({ stop: false });
      expect(verdictFor({ finishReason: 'other' })).toEqual({ stop: false });
    });
  });

  it("otherPolicy 'stop' stops on any unfamiliar reason", () => {
    expect(verdictFor({ finishReason: 'other', toolCalls: [call('a')] }, { otherPolicy: 'stop' })).toEqual({
      stop: true,
      reason: 'finish-reason',
      code: 'FINISH_OTHER',
      detail: 'The step ended with the unfamiliar finish reason "other", and the policy is to stop on those.',
      evidence: { finishReason: 'other', normalized: 'other', mapped: 'other', policy: 'stop', hasText: false, toolCallCount: 1 },
    });
    expect(verdictFor({ text: 'x', finishReason: 'tool-calls' }, { otherPolicy: 'stop' })).toEqual({ stop: false });
  });

  it("otherPolicy 'continue' never stops on an unfamiliar reason but still stops on terminal ones", () => {
    expect(verdictFor({ text: 'x', finishReason: 'other' }, { otherPolicy: 'continue' })).toEqual({ stop: false });
    expect(verdictFor({ text: 'x', finishReason: 'stop' }, { otherPolicy: 'continue' })).toMatchObject({
      code: 'FINISH_TERMINAL',
      evidence: { policy: 'continue' },
    });
  });

  it('a custom terminal list replaces the default and is normalised', () => {
    const options = { terminal: ['STOP', 'end_turn'] };
    expect(verdictFor({ text: 'x', finishReason: 'end-turn' }, options)).toMatchObject({ code: 'FINISH_TERMINAL' });
    expect(verdictFor({ text: 'x', finishReason: 'length' }, options)).toMatchObject({ code: 'FINISH_OTHER_TEXT_ONLY' });
    expect(verdictFor({ finishReason: 'length' }, options)).toEqual({ stop: false });
  });

  it('reports the last normalised reason in its state', () => {
    const guard = createGuard({ ...ALL_OFF, finishReason: {} });
    expect(guard.summary().detectors['finish-reason']).toEqual({ lastFinishReason: null, otherPolicy: 'stop-if-text-only' });
    guard.check({ finishReason: 'Tool_Calls' });
    expect(guard.summary().detectors['finish-reason']).toEqual({ lastFinishReason: 'tool-calls', otherPolicy: 'stop-if-text-only' });
    guard.reset();
    expect(guard.summary().detectors['finish-reason']).toEqual({ lastFinishReason: null, otherPolicy: 'stop-if-text-only' });
  });
});

describe('finishReason on huge reasons', () => {
  it('stops on a reason too long to normalise whole as on any unfamiliar one, with evidence that stays loggable', () => {
    const huge = `\u0001${'x'.repeat(MAX_NORMALIZED_TEXT)}`;
    const verdict = verdictFor({ text: 'done', finishReason: huge });
    const start = preview(huge, MAX_NORMALIZED_TEXT);
    expect(verdict).toMatchObject({
      stop: true,
      code: 'FINISH_OTHER_TEXT_ONLY',
      evidence: { finishReason: start, normalized: start, mapped: start, hasText: true, toolCallCount: 0 },
    });
    // The reason, its normalised and mapped forms, and the detail quoting it: four starts of it at most.
    expect(JSON.stringify(verdict).length).toBeLessThan(5 * MAX_NORMALIZED_TEXT);
  });

  it('is never matched by a terminal reason that its start spells', () => {
    const terminal = 'x'.repeat(1_000);
    expect(verdictFor({ text: 'done', finishReason: terminal }, { terminal: [terminal] })).toMatchObject({ code: 'FINISH_TERMINAL' });
    expect(verdictFor({ text: 'done', finishReason: terminal.repeat(5_000) }, { terminal: [terminal], otherPolicy: 'continue' })).toEqual({ stop: false });
  });

  // The red-team size: lower-casing 268,500,000 dotted capital Is (537,000,000 characters once lower-cased, past what a
  // string may hold) crashed Node with a segmentation fault. Seconds on a busy machine, so twice the 60 s every test gets.
  it('checks a step whose finish reason lower-cases past the longest string Node can hold', { timeout: 120_000 }, () => {
    const huge = '\u0130'.repeat(268_500_000);
    expect(verdictFor({ finishReason: huge })).toEqual({ stop: false });
  });
});

describe('finishReason detector result shape', () => {
  it('answers undefined for a continuing reason', () => {
    const detector = finishReasonDetector({ terminal: ['stop'], otherPolicy: 'stop-if-text-only' });
    expect(detector.check(factsOf({ finishReason: 'tool-calls', text: 'calling' }), true)).toBeUndefined();
    expect(detector.check(factsOf({ finishReason: 'other', toolCalls: [{ name: 'a' }], text: 'x' }), true)).toBeUndefined();
  });
});
