import { describe, expect, it } from 'vitest';
import { finishReason } from '../../src/detectors/finish-reason.js';
import { createGuard, explain, isFault, runAgentLoop, type GuardOptions, type GuardStep, type StopCodes } from '../../src/index.js';
import { MAX_NORMALIZED_TEXT, preview } from '../../src/utils/text.js';
import { ALL_OFF, call, factsOf } from '../support/step-builder.js';

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

  // The red-team size, 268,500,000 dotted capital Is (537,000,000 characters once lower-cased, past what a string may
  // hold), crashed Node with a segmentation fault. What prevents it: only the start is lower-cased, each I becoming two
  // characters, so what is lower-cased is bounded whatever the reason's length (a few seconds of CPU to show at that size).
  it('lower-cases only the start of a reason too long to normalise whole', () => {
    const verdict = verdictFor({ finishReason: '\u0130'.repeat(MAX_NORMALIZED_TEXT + 1) }, { otherPolicy: 'stop' });
    const normalized = verdict.stop && verdict.reason === 'finish-reason' ? verdict.evidence.normalized : '';
    expect(normalized).toBe(`${'i\u0307'.repeat(MAX_NORMALIZED_TEXT - 1)}…`);
  });
});

describe('finishReason through the detector contract', () => {
  const options = finishReason.resolve({ terminal: ['stop'] });
  if (options === false) throw new Error('finishReason is on');

  it('keeps the state it is given for a step without a reason, and records the reason of any other step', () => {
    const start = finishReason.start(options);
    expect(start).toEqual({ lastReason: null });
    expect(finishReason.check(start, factsOf({ text: 'x' }), options)).toStrictEqual({ state: start });
    expect(finishReason.check(start, factsOf({ text: 'x', finishReason: '  ' }), options)).toStrictEqual({ state: start });
    expect(finishReason.check(start, factsOf({ finishReason: 'Tool_Calls', text: 'calling' }), options)).toStrictEqual({ state: { lastReason: 'tool-calls' } });
    expect(finishReason.check(start, factsOf({ finishReason: 'other', toolCalls: [{ name: 'a' }], text: 'x' }), options)).toStrictEqual({ state: { lastReason: 'other' } });
    expect(start).toEqual({ lastReason: null });
  });

  it('leaves stop and reason to the guard: a finding is a code, a detail and evidence', () => {
    expect(finishReason.check(finishReason.start(options), factsOf({ text: 'x', finishReason: 'stop' }), options)).toStrictEqual({
      state: { lastReason: 'stop' },
      stop: {
        code: 'FINISH_TERMINAL',
        detail: 'The model finished its answer (finish reason "stop").',
        evidence: { finishReason: 'stop', normalized: 'stop', mapped: 'stop', policy: 'stop-if-text-only', hasText: true, toolCallCount: 0 },
      },
    });
  });

  it('judges no call before it runs, and restores its last reason, refusing one that is not a string', () => {
    expect(finishReason.judgesCalls(options)).toBe(false);
    expect(finishReason.restore({ lastReason: 'length' }, options, 'here')).toEqual({ lastReason: 'length' });
    expect(finishReason.restore({ lastReason: null }, options, 'here')).toEqual({ lastReason: null });
    expect(() => finishReason.restore({ lastReason: 5 }, options, 'here')).toThrow('snapshot field "here.lastReason" must be a string, got 5.');
    expect(() => finishReason.restore([], options, 'here')).toThrow('snapshot field "here" must be an object, got an array.');
  });
});

describe('finishReason normalises what it reads', () => {
  const normalized = (finishReason: string): unknown => {
    const verdict = createGuard({ ...ALL_OFF, finishReason: { otherPolicy: 'stop' } }).check({ finishReason });
    return verdict.stop && verdict.reason === 'finish-reason' ? verdict.evidence.normalized : undefined;
  };

  it('trims, lower-cases and writes underscores as hyphens', () => {
    expect(normalized(' OTHER_THING\n')).toBe('other-thing');
    expect(normalized('End_Turn')).toBe('end-turn');
  });

  it('normalises finish reasons built to make a backtracking expression go quadratic', () => {
    const half = 512 * 1024;
    expect(normalized(`${' '.repeat(half)}MADE_UP${'\t'.repeat(half)}`)).toBe('made-up');
    expect(normalized(`_${' x'.repeat(half)}`)).toBe(`-${' x'.repeat(half)}`);
  });

  it('normalises a reason as long as a text may be whole, and a longer one from its start, as a preview', () => {
    const whole = `_${'A'.repeat(MAX_NORMALIZED_TEXT - 1)}`;
    expect(normalized(` ${whole} `)).toBe(`-${'a'.repeat(MAX_NORMALIZED_TEXT - 1)}`);
    expect(normalized(` ${whole}B `)).toBe(preview(`-${'a'.repeat(MAX_NORMALIZED_TEXT)}`, MAX_NORMALIZED_TEXT));
  });
});

type Mapped = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** What a text-only step with the reason gets under the default finish-reason options, by what the reason means. */
const TEXT_ONLY_CODE: Readonly<Record<Mapped, StopCodes['finish-reason'] | undefined>> = {
  stop: 'FINISH_TERMINAL',
  length: 'FINISH_TERMINAL',
  'content-filter': 'FINISH_TERMINAL',
  error: 'FINISH_TERMINAL',
  'tool-calls': undefined,
  other: 'FINISH_OTHER_TEXT_ONLY',
};

// Every value each provider documents, exactly as its API spells it, and what it means.
const PROVIDERS: Readonly<Record<string, readonly (readonly [raw: string, mapped: Mapped])[]>> = {
  'OpenAI Chat Completions (and Azure, Groq, xAI, DeepSeek)': [
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool-calls'],
    ['content_filter', 'content-filter'],
    ['function_call', 'tool-calls'],
    ['insufficient_system_resource', 'error'],
  ],
  'OpenAI Responses (status, incomplete_details.reason)': [
    ['completed', 'stop'],
    ['incomplete', 'length'],
    ['max_output_tokens', 'length'],
    ['content_filter', 'content-filter'],
    ['failed', 'error'],
    ['cancelled', 'error'],
    ['in_progress', 'other'],
    ['queued', 'other'],
  ],
  'Anthropic Messages': [
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool-calls'],
    ['pause_turn', 'tool-calls'],
    ['compaction', 'tool-calls'],
    ['refusal', 'content-filter'],
    ['model_context_window_exceeded', 'length'],
  ],
  'Google Gemini (finishReason, blockReason, Interactions status)': [
    ['STOP', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content-filter'],
    ['RECITATION', 'content-filter'],
    ['LANGUAGE', 'content-filter'],
    ['OTHER', 'other'],
    ['BLOCKLIST', 'content-filter'],
    ['PROHIBITED_CONTENT', 'content-filter'],
    ['SPII', 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
    ['IMAGE_SAFETY', 'content-filter'],
    ['UNEXPECTED_TOOL_CALL', 'error'],
    ['TOO_MANY_TOOL_CALLS', 'error'],
    ['IMAGE_PROHIBITED_CONTENT', 'content-filter'],
    ['NO_IMAGE', 'error'],
    ['IMAGE_RECITATION', 'content-filter'],
    ['IMAGE_OTHER', 'other'],
    ['CONTINUATION', 'length'],
    ['FINISH_REASON_UNSPECIFIED', 'other'],
    ['BLOCKED_REASON_UNSPECIFIED', 'other'],
    ['MODEL_ARMOR', 'content-filter'],
    ['JAILBREAK', 'content-filter'],
    ['requires_action', 'tool-calls'],
  ],
  'AWS Bedrock Converse': [
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['guardrail_intervened', 'content-filter'],
    ['content_filtered', 'content-filter'],
    ['malformed_model_output', 'error'],
    ['malformed_tool_use', 'error'],
    ['model_context_window_exceeded', 'length'],
  ],
  Mistral: [
    ['stop', 'stop'],
    ['length', 'length'],
    ['model_length', 'length'],
    ['error', 'error'],
    ['tool_calls', 'tool-calls'],
  ],
  'Cohere (v2 and v1)': [
    ['COMPLETE', 'stop'],
    ['STOP_SEQUENCE', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['TOOL_CALL', 'tool-calls'],
    ['ERROR', 'error'],
    ['TIMEOUT', 'error'],
    ['ERROR_TOXIC', 'content-filter'],
    ['ERROR_LIMIT', 'length'],
    ['USER_CANCEL', 'error'],
  ],
  'Ollama (done_reason)': [
    ['stop', 'stop'],
    ['length', 'length'],
    ['load', 'other'],
    ['unload', 'other'],
    ['connection_closed', 'error'],
  ],
  'Vercel AI SDK (unified values)': [
    ['stop', 'stop'],
    ['length', 'length'],
    ['content-filter', 'content-filter'],
    ['tool-calls', 'tool-calls'],
    ['error', 'error'],
    ['other', 'other'],
    ['unknown', 'other'],
    ['interrupted', 'error'],
  ],
};

const ONLY_FINISH: GuardOptions = { ...ALL_OFF, finishReason: {} };

describe.each(Object.entries(PROVIDERS))('finish reasons of %s', (_provider, rows) => {
  it.each(rows)('%s on a text-only step reads as %s', (raw, mapped) => {
    const verdict = createGuard(ONLY_FINISH).check({ text: 'The answer.', finishReason: raw });
    const code = TEXT_ONLY_CODE[mapped];
    if (code === undefined) {
      expect(verdict).toEqual({ stop: false });
      return;
    }
    const normalized = raw.trim().toLowerCase().replaceAll('_', '-');
    expect(verdict).toMatchObject({
      stop: true,
      reason: 'finish-reason',
      code,
      evidence: { finishReason: raw, normalized, mapped, policy: 'stop-if-text-only', hasText: true, toolCallCount: 0 },
    });
    expect(isFault(verdict)).toBe(mapped !== 'stop');
  });
});

describe('what a finish reason means', () => {
  const mapped = (finishReason: string): unknown => {
    const verdict = createGuard({ ...ALL_OFF, finishReason: { otherPolicy: 'stop', terminal: [] } }).check({ finishReason });
    return verdict.stop && verdict.reason === 'finish-reason' ? verdict.evidence.mapped : undefined;
  };

  it('reads the specification reasons and unknown ones as themselves', () => {
    for (const reason of ['stop', 'length', 'content-filter', 'error', 'other', 'made-up']) expect(mapped(reason)).toBe(reason);
  });

  it('does not take a name on Object.prototype for a known reason', () => {
    for (const reason of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(mapped(reason)).toBe(reason.toLowerCase().replaceAll('_', '-'));
    }
    expect(mapped('constructor')).toBe('constructor');
  });

  it("reads a provider's clean finish on a step with tool calls as tool calls, but keeps the specification's stop terminal", () => {
    for (const raw of ['STOP', 'end_turn', 'completed', 'COMPLETE', 'stop_sequence', ' stop ']) {
      expect(createGuard(ONLY_FINISH).check({ text: 'x', finishReason: raw, toolCalls: [call('a')] })).toEqual({ stop: false });
      expect(createGuard({ ...ALL_OFF, finishReason: { otherPolicy: 'stop' } }).check({ finishReason: raw, toolCalls: [call('a')] })).toEqual({ stop: false });
      expect(createGuard(ONLY_FINISH).check({ text: 'x', finishReason: raw })).toMatchObject({ code: 'FINISH_TERMINAL', evidence: { mapped: 'stop' } });
    }
    // Named in the terminal list, a clean finish read as tool calls still goes on.
    expect(createGuard({ ...ALL_OFF, finishReason: { terminal: ['STOP', 'end_turn'] } }).check({ finishReason: 'end_turn', toolCalls: [call('a')] })).toEqual({ stop: false });
    expect(createGuard(ONLY_FINISH).check({ finishReason: 'stop', toolCalls: [call('a')] })).toMatchObject({ code: 'FINISH_TERMINAL', evidence: { mapped: 'stop' } });
    expect(createGuard(ONLY_FINISH).check({ finishReason: 'MAX_TOKENS', toolCalls: [call('a')] })).toMatchObject({ code: 'FINISH_TERMINAL', evidence: { mapped: 'length' } });
  });

  it('lets Gemini go on after a STOP with function calls, and stops its final STOP cleanly', () => {
    const guard = createGuard(ONLY_FINISH);
    expect(guard.check({ text: 'Let me look.', finishReason: 'STOP', toolCalls: [call('search')] })).toEqual({ stop: false });
    const final = guard.check({ text: 'Found it.', finishReason: 'STOP' });
    expect(final).toMatchObject({ code: 'FINISH_TERMINAL', detail: 'The model finished its answer (finish reason "stop").' });
    expect(isFault(final)).toBe(false);
  });

  it('keeps the specification: stop with tool calls is terminal, and so is any terminal reason with tool calls', () => {
    expect(createGuard(ONLY_FINISH).check({ finishReason: 'stop', toolCalls: [call('a')] })).toMatchObject({ code: 'FINISH_TERMINAL' });
    expect(createGuard(ONLY_FINISH).check({ finishReason: 'max_tokens', toolCalls: [call('a')] })).toMatchObject({
      code: 'FINISH_TERMINAL',
      detail: 'The step ended with the terminal finish reason "max-tokens", read as "length".',
    });
  });

  it('names the reason and what it was read as in the detail', () => {
    expect(createGuard(ONLY_FINISH).check({ text: 'x', finishReason: 'end_turn' })).toMatchObject({
      detail: 'The model finished its answer (finish reason "end-turn", read as "stop").',
    });
    expect(createGuard({ ...ALL_OFF, finishReason: { otherPolicy: 'stop' } }).check({ finishReason: 'IMAGE_OTHER' })).toMatchObject({
      code: 'FINISH_OTHER',
      detail: 'The step ended with the unfamiliar finish reason "image-other", read as "other", and the policy is to stop on those.',
    });
  });

  it('counts a reason as terminal when the terminal list names it or what it means', () => {
    const byMeaning = createGuard({ ...ALL_OFF, finishReason: { terminal: ['length'] } });
    expect(byMeaning.check({ finishReason: 'MAX_TOKENS' })).toMatchObject({ code: 'FINISH_TERMINAL', evidence: { mapped: 'length' } });
    const byName = createGuard({ ...ALL_OFF, finishReason: { terminal: ['pause_turn'] } });
    expect(byName.check({ finishReason: 'pause_turn' })).toMatchObject({ code: 'FINISH_TERMINAL', evidence: { normalized: 'pause-turn', mapped: 'tool-calls' } });
    // Without `stop` in the list, a clean finish is not terminal: it goes to otherPolicy, as the spec's `stop` would.
    expect(createGuard({ ...ALL_OFF, finishReason: { terminal: ['error'] } }).check({ text: 'x', finishReason: 'end_turn' })).toMatchObject({
      code: 'FINISH_OTHER_TEXT_ONLY',
    });
  });
});

describe('hints for terminal finish reasons', () => {
  const hint = (finishReason: string, terminal?: readonly string[]): string =>
    explain(createGuard({ ...ALL_OFF, finishReason: terminal === undefined ? {} : { terminal } }).check({ text: 'x', finishReason })).split('\n')[1] ?? '';

  it('fits the reason', () => {
    expect(hint('end_turn')).toBe('Hint: The model finished normally; nothing to fix.');
    expect(hint('max_tokens')).toBe('Hint: The answer was cut off at the output-token limit. Raise the limit, or ask for a shorter answer.');
    expect(hint('SAFETY')).toBe("Hint: The provider's content or safety filter ended the step. Sending the same input again will most likely end the same way.");
    expect(hint('malformed_tool_use')).toBe('Hint: The provider reported an error or cut the step short. Check its status and logs; trying again may help.');
    expect(hint('done', ['done'])).toBe('Hint: The step ended with a reason your finishReason.terminal lists, so the run ended as configured.');
    expect(hint('constructor', ['constructor'])).toBe('Hint: The step ended with a reason your finishReason.terminal lists, so the run ended as configured.');
    expect(hint('made_up')).toBe(
      'Hint: The provider ended the step with a reason the guard does not know. If it means the model is done, add it to finishReason.terminal; otherwise check the provider for what it means.',
    );
  });

  it('reads verdicts written before reasons were mapped (no mapped field) by their normalised reason', () => {
    const old = { stop: true, reason: 'finish-reason', code: 'FINISH_TERMINAL', detail: 'x', evidence: { finishReason: 'length', normalized: 'length', policy: 'stop-if-text-only', hasText: true, toolCallCount: 0 } } as never;
    expect(isFault(old)).toBe(true);
    expect(explain(old)).toContain('output-token limit');
    const clean = { stop: true, reason: 'finish-reason', code: 'FINISH_TERMINAL', detail: 'x', evidence: { finishReason: 'stop', normalized: 'stop', policy: 'stop-if-text-only', hasText: true, toolCallCount: 0 } } as never;
    expect(isFault(clean)).toBe(false);
  });
});

describe("runAgentLoop completes on each provider's clean finish", () => {
  const cleanFinishes = Object.entries(PROVIDERS).flatMap(([provider, rows]) => rows.filter(([, mapped]) => mapped === 'stop').map(([raw]) => [provider, raw] as const));

  it.each(cleanFinishes)('%s: %s', async (_provider, raw) => {
    const result = await runAgentLoop({
      step: (index) => (index === 0 ? { text: 'Looking.', toolCalls: [{ name: 'search', args: { q: 'x' }, result: 'found' }], finishReason: 'tool_use' } : { text: 'Done.', finishReason: raw }),
    });
    expect(result).toMatchObject({ completed: true, aborted: false, verdict: { stop: true, code: 'FINISH_TERMINAL', evidence: { mapped: 'stop' } } });
    expect(result.steps).toHaveLength(2);
  });
});
