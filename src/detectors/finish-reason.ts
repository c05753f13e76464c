import { MAX_NORMALIZED_TEXT, preview } from '../guard/normalize-text.js';
import type { OtherPolicy } from '../types.js';
import { savedObject, savedOptional, savedString } from '../snapshot/read-saved.js';
import type { Detector, Finding } from './detector.js';
import { normalizeFinishReason } from './normalize-finish-reason.js';
import { meaningOf } from './provider-finish-reasons.js';

/** A reason as details name it: as normalised, and what it was read as when that differs. */
function named(normalized: string, mapped: string): string {
  return mapped === normalized ? `"${normalized}"` : `"${normalized}", read as "${mapped}"`;
}

/**
 * Stops on a terminal finish reason, and on an unfamiliar one according to `otherPolicy`. `tool-calls`
 * continues and a missing reason says nothing. A provider's own reasons (`end_turn`, `MAX_TOKENS`, `tool_use`) are
 * read as the reasons they mean first (see `meaningOf`); a reason counts as terminal when `terminal` lists it or what
 * it means.
 *
 * A provider's spelling of a clean finish (`STOP`, `end_turn`, `completed`) on a step that made tool calls reads as
 * `tool-calls`: Gemini and the Responses API end such steps that way, and the loop goes on. The exact spelling `stop`
 * keeps the specification's meaning, terminal even with tool calls.
 */
export function finishReasonDetector(
  options: { readonly terminal: readonly string[]; readonly otherPolicy: OtherPolicy },
  saved?: unknown,
  path = '',
): Detector<'finish-reason'> {
  const terminal = new Set(options.terminal);
  const policy = options.otherPolicy;
  let lastReason =
    saved === undefined ? undefined : savedOptional(savedObject(saved, path).lastReason, (value) => savedString(value, `${path}.lastReason`));
  // A run's steps mostly end with one reason: the last one normalised is kept, to skip three string passes a step.
  let lastGiven: string | undefined;
  let lastNormalized = '';

  return {
    kind: 'finish-reason',
    judgesCalls: false,
    check(facts, record) {
      const finishReason = facts.finishReason;
      if (finishReason === undefined) return undefined;
      if (finishReason !== lastGiven) {
        lastGiven = finishReason;
        lastNormalized = normalizeFinishReason(finishReason);
      }
      const normalized = lastNormalized;
      if (normalized === '') return undefined;
      if (record) lastReason = normalized;

      const toolCallCount = facts.calls.length;
      const meaning = meaningOf(normalized);
      const mapped = meaning === 'stop' && toolCallCount > 0 && finishReason !== 'stop' ? 'tool-calls' : meaning;
      let stop: Omit<Finding<'finish-reason'>, 'evidence'> | undefined;
      // Listed by name, a reason is terminal unless the step showed it to mean tool calls.
      if (terminal.has(mapped) || (mapped === meaning && terminal.has(normalized))) {
        stop = {
          code: 'FINISH_TERMINAL',
          detail:
            mapped === 'stop'
              ? `The model finished its answer (finish reason ${named(normalized, mapped)}).`
              : `The step ended with the terminal finish reason ${named(normalized, mapped)}.`,
        };
      } else if (mapped === 'tool-calls' || policy === 'continue' || (policy === 'stop-if-text-only' && (toolCallCount > 0 || !facts.hasText))) {
        return undefined;
      } else if (policy === 'stop') {
        stop = {
          code: 'FINISH_OTHER',
          detail: `The step ended with the unfamiliar finish reason ${named(normalized, mapped)}, and the policy is to stop on those.`,
        };
      } else {
        stop = {
          code: 'FINISH_OTHER_TEXT_ONLY',
          detail: `A text-only step ended with the unfamiliar finish reason ${named(normalized, mapped)}; a loop that only treats "stop" as done would ask again.`,
        };
      }
      // The reason as given, unless it is too long to normalise whole: then its start, so the verdict stays loggable.
      const evidence = { finishReason: preview(finishReason, MAX_NORMALIZED_TEXT), normalized, mapped, policy, hasText: facts.hasText, toolCallCount };
      return { stop: { ...stop, evidence } };
    },
    state: () => ({ lastFinishReason: lastReason ?? null, otherPolicy: policy }),
    save: () => ({ lastReason: lastReason ?? null }),
  };
}
