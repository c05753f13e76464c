import type { OtherPolicy } from '../types.js';
import { savedObject, savedOptional, savedString } from '../snapshot/read-saved.js';
import type { Detector, Finding } from './detector.js';
import { normalizeFinishReason } from './normalize-finish-reason.js';

/**
 * Stops on a terminal finish reason, and on an unfamiliar one according to `otherPolicy`. `tool-calls`
 * continues and a missing reason says nothing.
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

  return {
    kind: 'finish-reason',
    judgesCalls: false,
    check(facts, record) {
      const finishReason = facts.finishReason;
      if (finishReason === undefined) return undefined;
      const normalized = normalizeFinishReason(finishReason);
      if (normalized === '') return undefined;
      if (record) lastReason = normalized;

      const textOnly = facts.hasText && facts.calls.length === 0;
      let stop: Omit<Finding<'finish-reason'>, 'evidence'> | undefined;
      if (terminal.has(normalized)) {
        stop = {
          code: 'FINISH_TERMINAL',
          detail:
            normalized === 'stop'
              ? 'The model finished its answer (finish reason "stop").'
              : `The step ended with the terminal finish reason "${normalized}".`,
        };
      } else if (normalized === 'tool-calls' || policy === 'continue' || (policy === 'stop-if-text-only' && !textOnly)) {
        return undefined;
      } else if (policy === 'stop') {
        stop = {
          code: 'FINISH_OTHER',
          detail: `The step ended with the unfamiliar finish reason "${normalized}", and the policy is to stop on those.`,
        };
      } else {
        stop = {
          code: 'FINISH_OTHER_TEXT_ONLY',
          detail: `A text-only step ended with the unfamiliar finish reason "${normalized}"; a loop that only treats "stop" as done would ask again.`,
        };
      }
      const evidence = { finishReason, normalized, policy, hasText: facts.hasText, toolCallCount: facts.calls.length };
      return { stop: { ...stop, evidence } };
    },
    state: () => ({ lastFinishReason: lastReason ?? null, otherPolicy: policy }),
    save: () => ({ lastReason: lastReason ?? null }),
  };
}
