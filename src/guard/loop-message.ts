import type { LoopWarning, Verdict } from '../types.js';

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
