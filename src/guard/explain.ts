import { isFault } from './is-fault.js';
import { printable } from './printable.js';
import type { CallVerdict, StopReason, StopVerdict, Verdict } from '../types.js';

const HINTS: Readonly<Record<StopReason, string>> = {
  'max-steps': 'The run used every step it was allowed. Raise maxSteps if the task really needs more, or look for a loop the other detectors do not catch.',
  'repeated-tool-call': 'The model keeps sending the same call. Make sure the tool result tells it something it can act on, and that the prompt says what to do when a tool fails.',
  oscillation: 'The model is alternating between the same few calls. It may be missing a result it needs, or two tools may be undoing each other.',
  'no-progress': 'Nothing new is coming back and the model keeps saying the same thing. Give it a way out: a clearer result, an error it can act on, or a rule to finish.',
  stagnation: 'The model keeps getting answers it has already seen: a few calls in an irregular loop, or new arguments that all get the same reply. Tell it what the answers mean, or give it a rule for when to stop searching.',
  'finish-reason': 'The provider ended the step with a reason the guard does not know. If it means the model is done, add it to finishReason.terminal; otherwise check the provider for what it means.',
  budget: 'The run used up a budget you set. Raise the limit if the task is worth it, or find out which steps spent it.',
  custom: 'One of your own detectors asked to stop; its evidence says why.',
};

// For a finish reason that stops as terminal, by what the reason means. A Map: a user's terminal reason may be any
// string, `constructor` included.
const TERMINAL_HINTS = new Map([
  ['length', 'The answer was cut off at the output-token limit. Raise the limit, or ask for a shorter answer.'],
  ['content-filter', "The provider's content or safety filter ended the step. Sending the same input again will most likely end the same way."],
  ['error', 'The provider reported an error or cut the step short. Check its status and logs; trying again may help.'],
]);

function hintOf(verdict: StopVerdict): string {
  if (!isFault(verdict)) return 'The model finished normally; nothing to fix.';
  if (verdict.reason === 'finish-reason' && verdict.code === 'FINISH_TERMINAL') {
    const { mapped = verdict.evidence.normalized } = verdict.evidence as { mapped?: string };
    return TERMINAL_HINTS.get(mapped) ?? 'The step ended with a reason your finishReason.terminal lists, so the run ended as configured.';
  }
  return HINTS[verdict.reason];
}

/**
 * Turns a verdict into readable lines for logs: the code and detail, a short hint, then any warnings; or, for what
 * `judgeCall` said, whether the call may run and, if not, the message the model gets instead. Text that came from
 * outside (a hand-made verdict, say) is escaped, so every line it returns is one line of the report.
 * @param verdict - what `check`, `peek` or `judgeCall` returned
 */
export function explain(verdict: Verdict | CallVerdict): string {
  if ('block' in verdict) {
    if (!verdict.block) return 'Allowed.';
    return `Blocked [${printable(verdict.code)}] ${printable(verdict.detail)}\nMessage: ${printable(verdict.message)}`;
  }
  const lines: string[] = [];
  if (!verdict.stop) {
    lines.push('Continue.');
  } else {
    lines.push(`Stop [${printable(verdict.code)}] ${printable(verdict.detail)}`);
    lines.push(`Hint: ${hintOf(verdict)}`);
  }
  for (const warning of verdict.warnings ?? []) lines.push(`Warning [${printable(warning.code)}] ${printable(warning.detail)}`);
  return lines.join('\n');
}
