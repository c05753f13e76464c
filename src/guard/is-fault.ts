import type { StopVerdict, Verdict } from '../types.js';

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
