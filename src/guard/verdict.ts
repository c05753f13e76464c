import { MAX_CHARACTERS } from '../canonical/limits.js';
import type { Finding } from '../detectors/detector.js';
import type { GuardWarning, StopReason, StopVerdict, Verdict } from '../types.js';
import { toPlainJson } from './plain-json.js';
import { printable } from './printable.js';

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
