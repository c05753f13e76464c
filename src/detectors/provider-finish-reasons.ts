/**
 * Finish reasons as providers send them, in the form `normalizeFinishReason` gives them, by the reason they mean in
 * the guard's vocabulary. Read from each provider's API reference and official SDK types, and from the AI SDK's own
 * mapping functions (docs/detection.md shows the table, with the judgement calls).
 *
 * - OpenAI Chat (and Azure, Groq, xAI, DeepSeek, Ollama's /v1): `stop`, `length`, `tool_calls`, `content_filter`,
 *   `function_call`; DeepSeek adds `insufficient_system_resource`.
 * - OpenAI Responses: `status` and `incomplete_details.reason`.
 * - Anthropic Messages (and Claude on Bedrock and Vertex): `end_turn`, `stop_sequence`, `max_tokens`, `tool_use`,
 *   `pause_turn`, `compaction`, `refusal`, `model_context_window_exceeded`.
 * - Google Gemini `finishReason` and `blockReason`, and the Interactions API's `status`.
 * - AWS Bedrock Converse `stopReason`; Mistral; Cohere v1 and v2; Ollama's native `done_reason`.
 * - The AI SDK's own `unknown` (V2) and `interrupted` (V4).
 *
 * `pause_turn` and `compaction` pause a turn the caller resumes by sending it back: the loop goes on, as for
 * `tool-calls`.
 */
const BY_MEANING = {
  stop: 'end-turn stop-sequence complete completed',
  length: 'max-tokens max-output-tokens model-length model-context-window-exceeded error-limit continuation incomplete',
  'content-filter':
    'content-filtered refusal safety recitation language blocklist prohibited-content spii image-safety image-prohibited-content image-recitation model-armor jailbreak guardrail-intervened error-toxic',
  'tool-calls': 'tool-use tool-call function-call requires-action pause-turn compaction',
  error:
    'interrupted failed cancelled malformed-function-call unexpected-tool-call too-many-tool-calls no-image malformed-model-output malformed-tool-use timeout user-cancel insufficient-system-resource connection-closed',
  other: 'unknown finish-reason-unspecified blocked-reason-unspecified image-other in-progress queued load unload',
} as const;

/** A reason in the guard's own vocabulary: what the specification's `stop`, `length`, ... stand for. */
export type MappedFinishReason = keyof typeof BY_MEANING;

// A Map, not an object: `constructor` or `__proto__` must not look like a known reason.
const MEANINGS = new Map<string, MappedFinishReason>();
for (const [meaning, reasons] of Object.entries(BY_MEANING) as [MappedFinishReason, string][]) {
  for (const reason of reasons.split(' ')) MEANINGS.set(reason, meaning);
}

/**
 * What a finish reason means in the guard's vocabulary: a provider's own reason by the table, anything else (the
 * specification's reasons, and reasons nobody listed) as itself.
 * @param normalized - the reason in the form `normalizeFinishReason` gives it
 * @returns the reason it stands for
 */
export function meaningOf(normalized: string): string {
  return MEANINGS.get(normalized) ?? normalized;
}
