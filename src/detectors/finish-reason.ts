import type { OtherPolicy } from '../types.js';
import { MAX_NORMALIZED_TEXT, preview } from '../utils/text.js';
import { listOption, nullable, optionError, record, text } from '../utils/validate.js';
import { DEFAULT_OPTIONS } from './defaults.js';
import { type Detector, type Finding, optionSection } from './detector.js';

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

// A Map, not an object: `constructor` or `__proto__` must not look like a known reason.
const MEANINGS = new Map<string, string>();
for (const [meaning, reasons] of Object.entries(BY_MEANING)) {
  for (const reason of reasons.split(' ')) MEANINGS.set(reason, meaning);
}

/**
 * Trimmed, lower-cased, `_` replaced by `-`: so `STOP`, ` stop ` and `tool_calls` match their usual spellings. A reason
 * longer than `MAX_NORMALIZED_TEXT` once trimmed is normalised from its start, as step texts are: lower-casing
 * hundreds of millions of characters can crash the process.
 */
export function normalizeFinishReason(reason: string): string {
  const trimmed = reason.trim();
  return (trimmed.length > MAX_NORMALIZED_TEXT ? preview(trimmed, MAX_NORMALIZED_TEXT) : trimmed).toLowerCase().replaceAll('_', '-');
}

/** Most terminal reasons, and the longest one: each is normalised and kept. */
const MAX_TERMINAL_REASONS = 1_000;
const MAX_TERMINAL_REASON_LENGTH = 1_000;
const OTHER_POLICIES: readonly OtherPolicy[] = ['stop', 'continue', 'stop-if-text-only'];

/** Options of `finishReason` after validation. */
export interface FinishReasonSettings {
  readonly terminal: readonly string[];
  readonly otherPolicy: OtherPolicy;
}

/** Terminal reasons in one order whatever order they were given in: the defaults in theirs, then the rest sorted, once each. */
function terminalSet(terminal: readonly string[]): string[] {
  const defaults: readonly string[] = DEFAULT_OPTIONS.finishReason.terminal;
  const rank = (reason: string): number => {
    const index = defaults.indexOf(reason);
    return index === -1 ? defaults.length : index;
  };
  return [...new Set(terminal)].sort((left, right) => rank(left) - rank(right) || (left < right ? -1 : 1));
}

function resolveFinishReason(value: unknown): FinishReasonSettings | false {
  const options = optionSection('finishReason', value, ['terminal', 'otherPolicy']);
  if (options === false) return false;
  const defaults = DEFAULT_OPTIONS.finishReason;
  let terminal: readonly string[] = defaults.terminal;
  if (options.terminal !== undefined) {
    const list = listOption('finishReason.terminal', options.terminal, MAX_TERMINAL_REASONS, 'an array of strings');
    terminal = list.map((reason, index) => {
      if (typeof reason !== 'string' || reason.length > MAX_TERMINAL_REASON_LENGTH) {
        optionError(`finishReason.terminal[${index}]`, `a string of at most ${MAX_TERMINAL_REASON_LENGTH} characters`, reason);
      }
      return normalizeFinishReason(reason);
    });
  }
  const otherPolicy = options.otherPolicy === undefined ? defaults.otherPolicy : options.otherPolicy;
  if (!OTHER_POLICIES.includes(otherPolicy as OtherPolicy)) {
    optionError('finishReason.otherPolicy', `one of ${OTHER_POLICIES.map((policy) => `"${policy}"`).join(', ')}`, otherPolicy);
  }
  return { terminal: Object.freeze(terminal), otherPolicy: otherPolicy as OtherPolicy };
}

// For a finish reason that stops as terminal, by what the reason means. A Map: a user's terminal reason may be any
// string, `constructor` included.
const TERMINAL_HINTS = new Map([
  ['length', 'The answer was cut off at the output-token limit. Raise the limit, or ask for a shorter answer.'],
  ['content-filter', "The provider's content or safety filter ended the step. Sending the same input again will most likely end the same way."],
  ['error', 'The provider reported an error or cut the step short. Check its status and logs; trying again may help.'],
]);

/** A reason as details name it: as normalised, and what it was read as when that differs. */
function named(normalized: string, mapped: string): string {
  return mapped === normalized ? `"${normalized}"` : `"${normalized}", read as "${mapped}"`;
}

/**
 * Stops on a terminal finish reason, and on an unfamiliar one according to `otherPolicy`; `tool-calls` continues and a
 * missing reason says nothing. A provider's own reasons (`end_turn`, `MAX_TOKENS`, `tool_use`) are read as what they
 * mean first; a reason counts as terminal when `terminal` lists it or what it means.
 *
 * A provider's spelling of a clean finish (`STOP`, `end_turn`, `completed`) on a step that made tool calls reads as
 * `tool-calls`: Gemini and the Responses API end such steps that way, and the loop goes on. The exact spelling `stop`
 * keeps the specification's meaning, terminal even with tool calls.
 */
export const finishReason: Detector<'finish-reason', FinishReasonSettings, { readonly lastReason: string | null }> = {
  kind: 'finish-reason',
  option: 'finishReason',
  resolve: resolveFinishReason,
  judgesCalls: () => false,
  start: () => ({ lastReason: null }),
  check(state, facts, { terminal, otherPolicy: policy }) {
    const given = facts.finishReason;
    if (given === undefined) return { state };
    const normalized = normalizeFinishReason(given);
    if (normalized === '') return { state };
    const next = { lastReason: normalized };
    const toolCallCount = facts.calls.length;
    const meaning = MEANINGS.get(normalized) ?? normalized;
    const mapped = meaning === 'stop' && toolCallCount > 0 && given !== 'stop' ? 'tool-calls' : meaning;
    let stop: Omit<Finding<'finish-reason'>, 'evidence'>;
    // Listed by name, a reason is terminal unless the step showed it to mean tool calls.
    if (terminal.includes(mapped) || (mapped === meaning && terminal.includes(normalized))) {
      stop = {
        code: 'FINISH_TERMINAL',
        detail:
          mapped === 'stop'
            ? `The model finished its answer (finish reason ${named(normalized, mapped)}).`
            : `The step ended with the terminal finish reason ${named(normalized, mapped)}.`,
      };
    } else if (mapped === 'tool-calls' || policy === 'continue' || (policy === 'stop-if-text-only' && (toolCallCount > 0 || !facts.hasText))) {
      return { state: next };
    } else if (policy === 'stop') {
      stop = { code: 'FINISH_OTHER', detail: `The step ended with the unfamiliar finish reason ${named(normalized, mapped)}, and the policy is to stop on those.` };
    } else {
      stop = {
        code: 'FINISH_OTHER_TEXT_ONLY',
        detail: `A text-only step ended with the unfamiliar finish reason ${named(normalized, mapped)}; a loop that only treats "stop" as done would ask again.`,
      };
    }
    // The reason as given, unless it is too long to normalise whole: then its start, so the verdict stays loggable.
    const evidence = { finishReason: preview(given, MAX_NORMALIZED_TEXT), normalized, mapped, policy, hasText: facts.hasText, toolCallCount };
    return { state: next, stop: { ...stop, evidence } };
  },
  hint({ code, evidence }) {
    if (code !== 'FINISH_TERMINAL') return 'The provider ended the step with a reason the guard does not know. If it means the model is done, add it to finishReason.terminal; otherwise check the provider for what it means.';
    // Verdicts written before `mapped` existed (a restored `lastVerdict`, say) carry only `normalized`.
    const { mapped, normalized } = evidence as { mapped?: string; normalized?: string };
    return TERMINAL_HINTS.get(mapped ?? normalized ?? '') ?? 'The step ended with a reason your finishReason.terminal lists, so the run ended as configured.';
  },
  summary: ({ lastReason }, { otherPolicy }) => ({ lastFinishReason: lastReason, otherPolicy }),
  restore: (saved, _options, path) => record({ lastReason: nullable(text) })(saved, path),
  // The terminal reasons are a set: listed in another order, or twice, they stop the same steps, so a snapshot is tied
  // to the set. The default reasons come first in their own order, so a snapshot taken before stays readable.
  fingerprint: ({ terminal, otherPolicy }) => ({ terminal: terminalSet(terminal), otherPolicy }),
};
