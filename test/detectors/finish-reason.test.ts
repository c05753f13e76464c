import { describe, expect, it } from 'vitest';
import { createGuard, type GuardOptions, type GuardStep } from '../../src/index.js';
import { ALL_OFF, call, factsOf } from '../support/step-builder.js';
import { finishReasonDetector } from '../../src/detectors/finish-reason.js';

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

describe('finishReason detector result shape', () => {
  it('answers undefined for a continuing reason', () => {
    const detector = finishReasonDetector({ terminal: ['stop'], otherPolicy: 'stop-if-text-only' });
    expect(detector.check(factsOf({ finishReason: 'tool-calls', text: 'calling' }), true)).toBeUndefined();
    expect(detector.check(factsOf({ finishReason: 'other', toolCalls: [{ name: 'a' }], text: 'x' }), true)).toBeUndefined();
  });
});
