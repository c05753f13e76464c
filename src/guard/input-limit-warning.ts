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
