/** Verdicts: how a step's findings become one, and what a caller reads from them. */
import { toPlainJson } from '../canonical/plain-json.js';
import { MAX_CHARACTERS } from '../canonical/form.js';
import type { Finding } from '../detectors/detector.js';
import { DETECTORS } from '../detectors/registry.js';
import type { CallVerdict, GuardWarning, LoopWarning, StopReason, StopVerdict, Verdict } from '../types.js';
import { printable } from '../utils/text.js';
import { argumentError, isRecord } from '../utils/validate.js';

/** Warnings with their details escaped as stop details are: a loop warning quotes tool names and arguments. */
function printableWarnings(warnings: readonly GuardWarning[]): readonly GuardWarning[] {
  return warnings.map((warning) => {
    const detail = printable(warning.detail);
    return detail === warning.detail ? warning : { ...warning, detail };
  });
}

/**
 * The verdict for one step: the first finding in priority order, if any, as a stop, with every warning of the step.
 * @param reason - the kind of the detector that found `finding`
 * @param finding - what it found, or `undefined` to go on
 * @param given - the warnings every detector gave for the step, if any; their details are escaped like the stop's
 */
export function verdictOf(
  reason: StopReason | undefined,
  finding: Finding | undefined,
  given: readonly GuardWarning[] | undefined,
): Verdict {
  // Codes and details are written to logs: escaped, so no text a tool or rule supplied can forge a line. Evidence is
  // data: copied as plain JSON, so whatever a custom rule put in it, the verdict can be logged and stored.
  const warnings = given === undefined ? undefined : printableWarnings(given);
  if (reason === undefined || finding === undefined) return warnings === undefined ? { stop: false } : { stop: false, warnings };
  const stop = {
    stop: true,
    reason,
    code: printable(finding.code),
    detail: printable(finding.detail),
    evidence: toPlainJson(finding.evidence, MAX_CHARACTERS),
  };
  // A detector's kind and the finding it returns belong together (`Detector<Reason>`); the compiler cannot follow that
  // through the list of detectors, so the pairing is asserted here, in the one place verdicts are made.
  return (warnings === undefined ? stop : { ...stop, warnings }) as StopVerdict;
}

/**
 * Tells a problem from a normal ending: true for every stop except the model finishing cleanly, with `stop` or a
 * provider's own word for it (`end_turn`, `STOP`, `completed`, ...).
 * @param verdict - what `check` returned
 */
export function isFault(verdict: Verdict): verdict is StopVerdict {
  if (!verdict.stop) return false;
  if (verdict.reason !== 'finish-reason' || verdict.code !== 'FINISH_TERMINAL') return true;
  // Verdicts written before `mapped` existed (a restored `lastVerdict`, say) carry only `normalized`.
  const { mapped = verdict.evidence.normalized } = verdict.evidence as { mapped?: string };
  return mapped !== 'stop';
}

/**
 * The loop warnings of a verdict: what a loop detector says will stop the run soon.
 * @param verdict - what `check` returned
 * @returns the `LOOP_WARNING`s, in priority order
 */
export function loopWarnings(verdict: Verdict | undefined): readonly LoopWarning[] {
  return (verdict?.warnings ?? []).filter((warning): warning is LoopWarning => warning.code === 'LOOP_WARNING');
}

/**
 * What to tell the model before its next step, from a verdict's loop warnings: their messages, one a line, or
 * `undefined` when there is nothing to say. Add it to the next prompt (as a user message) to steer the model out of a
 * loop before the guard has to stop it.
 * @param verdict - what `check` returned for the latest step
 * @returns the text for the model, or `undefined`
 */
export function loopMessage(verdict: Verdict | undefined): string | undefined {
  const warnings = loopWarnings(verdict);
  return warnings.length === 0 ? undefined : warnings.map((warning) => warning.message).join('\n');
}

function hintOf(verdict: StopVerdict): string {
  if (!isFault(verdict)) return 'The model finished normally; nothing to fix.';
  const detector = DETECTORS.find((candidate) => candidate.kind === verdict.reason);
  return detector?.hint(verdict) ?? 'A detector this version of agent-loopguard does not know stopped the run; its evidence says why.';
}

/**
 * Turns a verdict into readable lines for logs: the code and detail, a short hint, then any warnings; or, for what
 * `judgeCall` said, whether the call may run and, if not, the message the model gets instead. Text that came from
 * outside (a hand-made verdict, say) is escaped, so every line it returns is one line of the report.
 * @param verdict - what `check`, `peek` or `judgeCall` returned
 */
export function explain(verdict: Verdict | CallVerdict): string {
  const given: unknown = verdict;
  if (!isRecord(given) || (typeof given.stop !== 'boolean' && typeof given.block !== 'boolean')) {
    argumentError('explain takes a verdict from check, peek or judgeCall', given);
  }
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
