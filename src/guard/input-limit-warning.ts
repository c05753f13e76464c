import { STEP_CHARACTERS, STEP_VALUES } from '../canonical/limits.js';
import type { InputLimitWarning } from '../types.js';
import { MAX_ARRAY_ITEMS } from './safe-read.js';

/**
 * The warning for a step that held more tool calls than are read: the rest were not seen by any detector, and the
 * verdict says so rather than staying silent.
 * @param given - how many tool calls the step held
 * @returns the warning
 */
export function toolCallLimitWarning(given: number): InputLimitWarning {
  return {
    code: 'INPUT_LIMIT',
    limit: 'toolCallsPerStep',
    maximum: MAX_ARRAY_ITEMS,
    given,
    detail: `The step held ${String(given)} tool calls; only the first ${String(MAX_ARRAY_ITEMS)} were read.`,
  };
}

/**
 * The warning for a step whose calls held more than one step may read: the calls read only in part are compared with
 * no other call, so the verdict says detection did not see them whole.
 * @param cutCalls - how many calls were read only in part
 * @returns the warning
 */
export function readLimitWarning(cutCalls: number): InputLimitWarning {
  return {
    code: 'INPUT_LIMIT',
    limit: 'readPerStep',
    maximumValues: STEP_VALUES,
    maximumCharacters: STEP_CHARACTERS,
    cutCalls,
    detail: `The step's tool calls held more than one step may read (${String(STEP_VALUES)} values or ${String(STEP_CHARACTERS)} characters); ${String(cutCalls)} ${cutCalls === 1 ? 'call was' : 'calls were'} read in part and compared with no other.`,
  };
}
