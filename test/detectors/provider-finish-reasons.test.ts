import { describe, expect, it } from 'vitest';
import { meaningOf } from '../../src/detectors/provider-finish-reasons.js';
import { normalizeFinishReason } from '../../src/detectors/normalize-finish-reason.js';
import { createGuard, explain, isFault, runAgentLoop, type GuardOptions, type StopCodes } from '../../src/index.js';
import { ALL_OFF, call } from '../support/step-builder.js';

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
    const normalized = normalizeFinishReason(raw);
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
  it('reads the specification reasons and unknown ones as themselves', () => {
    for (const reason of ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other', 'made-up']) {
      expect(meaningOf(reason)).toBe(reason);
    }
  });

  it('does not take a name on Object.prototype for a known reason', () => {
    for (const reason of ['constructor', '__proto__', 'tostring', 'hasownproperty']) expect(meaningOf(reason)).toBe(reason);
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
