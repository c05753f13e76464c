import type { Detector } from './detector.js';
import { normalizeFinishReason } from './normalize-finish-reason.js';
import type { OtherPolicy, StopVerdictFor } from '../types.js';

/**
 * Stops on a terminal finish reason, and on an unfamiliar one according to `otherPolicy`. `tool-calls`
 * continues and a missing reason says nothing.
 */
export function finishReasonDetector(options: {
  readonly terminal: readonly string[];
  readonly otherPolicy: OtherPolicy;
}): Detector {
  const terminal = new Set(options.terminal);
  let lastReason: string | null = null;

  return {
    kind: 'finish-reason',
    check(facts) {
      const finishReason = facts.finishReason;
      if (finishReason === undefined) return undefined;
      const normalized = normalizeFinishReason(finishReason);
      if (normalized === '') return undefined;
      lastReason = normalized;

      const evidence = {
        finishReason,
        normalized,
        policy: options.otherPolicy,
        hasText: facts.hasText,
        toolCallCount: facts.calls.length,
      };
      let stop: StopVerdictFor<'finish-reason'> | undefined;
      if (terminal.has(normalized)) {
        stop = {
          stop: true,
          reason: 'finish-reason',
          code: 'FINISH_TERMINAL',
          detail:
            normalized === 'stop'
              ? 'The model finished its answer (finish reason "stop").'
              : `The step ended with the terminal finish reason "${normalized}".`,
          evidence,
        };
      } else if (normalized === 'tool-calls' || options.otherPolicy === 'continue') {
        // Nothing to report: `stop` stays undefined.
      } else if (options.otherPolicy === 'stop') {
        stop = {
          stop: true,
          reason: 'finish-reason',
          code: 'FINISH_OTHER',
          detail: `The step ended with the unfamiliar finish reason "${normalized}", and the policy is to stop on those.`,
          evidence,
        };
      } else if (facts.hasText && facts.calls.length === 0) {
        stop = {
          stop: true,
          reason: 'finish-reason',
          code: 'FINISH_OTHER_TEXT_ONLY',
          detail: `A text-only step ended with the unfamiliar finish reason "${normalized}"; a loop that only treats "stop" as done would ask again.`,
          evidence,
        };
      }
      return stop === undefined ? undefined : { stop };
    },
    reset() {
      lastReason = null;
    },
    state: () => ({ lastFinishReason: lastReason, otherPolicy: options.otherPolicy }),
  };
}
