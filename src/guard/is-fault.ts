import type { StopVerdict, Verdict } from '../types.js';

/**
 * Tells a problem from a normal ending: true for every stop except the model finishing with `stop`.
 * @param verdict - what `check` returned
 */
export function isFault(verdict: Verdict): verdict is StopVerdict {
  if (!verdict.stop) return false;
  return !(verdict.reason === 'finish-reason' && verdict.code === 'FINISH_TERMINAL' && verdict.evidence.normalized === 'stop');
}
